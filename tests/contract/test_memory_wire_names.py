"""The memories wire names, pinned: the two event types and their fields, the change kinds, the
strategies, scopes, origins and cap params, and the SDK's record fields. Each is declared once
(`gg.telemetry.events`, `gg.state.memories`, `gg.sdk.records`); the console reads the same names."""

from __future__ import annotations

from gg.config import kinds
from gg.config.kinds import Origin
from gg.config.memories import CapName, Scope, Strategy
from gg.console.vocabulary import ModuleEvent
from gg.sdk.catalogue import default_registry
from gg.sdk.types import Record
from gg.state import modules
from gg.state.memories import Change, Incompatible
from gg.state.memories.notices import NoticeChange
from gg.telemetry.events import EventType
from gg.telemetry.module_events import MemoryRevision, MemoryState


def test_the_memory_events_are_declared_in_snake_case_and_read_by_the_console_as_declared() -> None:
    assert (EventType.MEMORY_STATE.value, EventType.MEMORY_REVISION.value) == (
        "memory_state",
        "memory_revision",
    )
    assert ModuleEvent.MEMORY_STATE.value == EventType.MEMORY_STATE.value
    assert ModuleEvent.MEMORY_REVISION.value == EventType.MEMORY_REVISION.value


def test_the_memory_events_carry_their_fields_in_camel_case() -> None:
    state = MemoryState(
        module_id="memories-0",
        strategy="scratchpad",
        memories=[],
        count=0,
        total_len=0,
        total_lines=0,
        peak={},
        caps={},
        scope="isolated",
        writable=True,
    )
    assert list(state.to_wire()) == [
        "moduleId",
        "strategy",
        "memories",
        "count",
        "totalLen",
        "totalLines",
        "peak",
        "caps",
        "scope",
        "writable",
    ]
    revision = MemoryRevision(name="m", revision=1, change="written", description="", body="", len=0, lines=0)
    assert list(revision.to_wire()) == ["name", "revision", "change", "description", "body", "len", "lines"]


def test_the_memories_vocabularies() -> None:
    assert [c.value for c in Change] == ["written", "updated", "deleted"]
    assert [c.value for c in NoticeChange] == ["added", "updated", "deleted"]
    assert [s.value for s in Strategy] == ["scratchpad", "markdown", "keyword-search"]
    assert [s.value for s in Scope] == ["isolated", "shared", "inherited", "read-only"]
    assert Origin is kinds.Origin
    assert [c.value for c in CapName] == [
        "maxCount",
        "maxLenPerMemory",
        "maxTotalLen",
        "maxLenIndex",
        "maxLenDescription",
        "maxResults",
    ]


def test_memories_answers_a_strategy_mismatch_in_the_frameworks_own_value() -> None:
    assert Incompatible is modules.Incompatible


def test_the_memories_records_fields() -> None:
    types = default_registry().types
    usage, hit = types["MemoryUsage"], types["MemoryHit"]
    assert isinstance(usage, Record) and isinstance(hit, Record)
    assert [(f.name, f.optional) for f in usage.fields] == [
        ("count", False),
        ("maxCount", True),
        ("totalChars", False),
        ("maxTotalChars", True),
        ("indexChars", True),
        ("maxIndexChars", True),
    ]
    assert [f.name for f in hit.fields] == ["name", "description", "matched", "occurrences", "excerpt"]
    assert [op.key for op in default_registry().in_family("memories")] == [
        "write_memory",
        "update_memory",
        "create_memory",
        "read_memory",
        "edit_memory",
        "delete_memory",
        "search_memories",
    ]
