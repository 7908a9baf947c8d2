"""The modules' events (seed 003, "Store identity and telemetry"): one snapshot per kind that reports
(`skills_state`, `memory_state`, `tasks_state`, `board_state`, `archive_state`), each under its
store's `moduleId`; `memory_revision`, the one delta; and `context_managed`, an agent moving part
of its own window out.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from gg.telemetry.events import EventType, Payload


@dataclass(frozen=True, kw_only=True)
class SkillsState(Payload):
    """A skills module's snapshot: its catalogue, each skill marked read or not."""

    TYPE: ClassVar[EventType] = EventType.SKILLS_STATE
    module_id: str
    skills: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class MemoryState(Payload):
    """A memory store as one holder sees it: every memory (`{name, description, len, lines}`), the
    totals, the peaks held at once, the caps in force (`null` where none is), and the holder's
    declared scope and whether it may write. `moduleId` is the store's, not the holder's."""

    TYPE: ClassVar[EventType] = EventType.MEMORY_STATE
    module_id: str
    strategy: str
    memories: list[dict[str, Any]]
    count: int
    total_len: int
    total_lines: int
    peak: dict[str, int]
    caps: dict[str, int | None]
    scope: str
    writable: bool


@dataclass(frozen=True, kw_only=True)
class MemoryRevision(Payload):
    """One successful mutation of one memory, on the stream of the agent that made it: the text as
    of this revision (empty for a deletion)."""

    TYPE: ClassVar[EventType] = EventType.MEMORY_REVISION
    name: str
    revision: int
    change: str
    description: str
    body: str
    len: int
    lines: int


class ContextAction(StrEnum):
    """What an agent did to its own window (`context_managed.action`)."""

    ARCHIVE_THREAD = "archive_thread"
    EVICT_FILE_VIEW = "evict_file_view"


@dataclass(frozen=True, kw_only=True)
class TasksState(Payload):
    """A task list's snapshot: every task in the order added (`{id, title, description?, status,
    blockedBy, inScope?, outOfScope?, completionCriteria?}`), under the store's id."""

    TYPE: ClassVar[EventType] = EventType.TASKS_STATE
    module_id: str
    tasks: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class BoardState(Payload):
    """The run's board: its epics and its issues, in the order created, under the store's id."""

    TYPE: ClassVar[EventType] = EventType.BOARD_STATE
    module_id: str
    epics: list[dict[str, Any]]
    issues: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class ArchiveState(Payload):
    """A thread archive's snapshot: each entry's `{seq, source, role, len, preview}` (the first
    200 characters), how many it holds and their total length in characters."""

    TYPE: ClassVar[EventType] = EventType.ARCHIVE_STATE
    module_id: str
    entries: list[dict[str, Any]]
    count: int
    total_len: int


@dataclass(frozen=True, kw_only=True)
class ContextManaged(Payload):
    """An agent moved part of its own window out: what it did, how many messages left the window,
    the tokens that freed (as `detail` says, measured or estimated) and in words what happened."""

    TYPE: ClassVar[EventType] = EventType.CONTEXT_MANAGED
    action: str
    reclaimed_tokens: int
    items: int
    detail: str
    earliest_removed: int | None = None
