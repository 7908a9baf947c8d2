"""The `context_breakdown` event (seed 003, "Store identity and telemetry": each turn reports what
every module costs the window), its band names and its units, declared once; `EventType` holds
its wire type beside every other's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from gg.telemetry.events import EventType, Payload


class ContextBand(StrEnum):
    """What part of a request a `context_breakdown` row measures: the system prompt, the tool's
    schema, the brief, the thread (replies, receipts, feedback), the views, the documentation
    views, and each module's pinned blocks (memories, tasks, skills). The board's band is always
    empty (it puts nothing in any prompt, so no breakdown lists it: a measured zero); the archive
    has no band at all."""

    SYSTEM = "System"
    TOOLS = "Tools"
    TASK = "Task"
    THREAD = "Thread"
    VIEWS = "Views"
    DOCS = "Docs"
    MEMORY = "Memory"
    TASK_LIST = "TaskList"
    BOARD = "Board"
    SKILL = "Skill"


class ContextUnit(StrEnum):
    """What a `context_breakdown` counts in: the provider's tokens, or characters when the
    provider reported none."""

    TOKENS = "tokens"
    CHARS = "chars"


@dataclass(frozen=True, kw_only=True)
class ContextBreakdown(Payload):
    """What one request cost its window, band by band, in `unit`: each row `{band, chars}` and,
    in tokens, its `tokens` too. `inputTokens` is the provider's measure of the whole request
    when it reported one; each band's tokens are its share of that, in proportion to its
    characters (a provider measures a request, not its parts)."""

    TYPE: ClassVar[EventType] = EventType.CONTEXT_BREAKDOWN
    unit: str
    bands: list[dict[str, Any]]
    input_tokens: int | None = None
