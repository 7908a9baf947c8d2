"""What a holder reports: its snapshot, and its drain — its own revisions, then a snapshot when the
store moved (worked example 3 of the research notes: a store shared by two holders)."""

from __future__ import annotations

from gg.config.memories import Scope
from gg.state.memories import drain, snapshot
from gg.telemetry.events import Payload
from gg.telemetry.module_events import MemoryRevision, MemoryState

from .world import Run, note, profile


def _wire(events: list[Payload]) -> list[tuple[str, dict[str, object]]]:
    return [(event.TYPE.value, event.to_wire()) for event in events]


def test_a_fresh_stores_snapshot_holds_empty_lists_and_the_caps() -> None:
    holder = Run().open(profile(max_count=64, max_len_per_memory=4096, max_len_description=256), "root")
    assert snapshot(holder).to_wire() == {
        "moduleId": "memories-0",
        "strategy": "scratchpad",
        "memories": [],
        "count": 0,
        "totalLen": 0,
        "totalLines": 0,
        "peak": {"count": 0, "totalLen": 0, "totalLines": 0},
        "caps": {
            "maxCount": 64,
            "maxLenPerMemory": 4096,
            "maxTotalLen": None,
            "maxLenIndex": None,
            "maxLenDescription": 256,
            "maxResults": None,
        },
        "scope": "isolated",
        "writable": True,
    }


def test_a_drain_reports_each_own_write_once_then_the_snapshot_and_then_nothing() -> None:
    holder = Run().open(profile(), "root")
    holder.store.write("root", note("m", "one\ntwo", "what"))
    holder.store.delete("root", "m")
    events = drain(holder)
    assert [type(event) for event in events] == [MemoryRevision, MemoryRevision, MemoryState]
    assert events[0].to_wire() == {
        "name": "m",
        "revision": 1,
        "change": "written",
        "description": "what",
        "body": "one\ntwo",
        "len": 7,
        "lines": 2,
    }
    assert events[1].to_wire() == {
        "name": "m",
        "revision": 2,
        "change": "deleted",
        "description": "",
        "body": "",
        "len": 0,
        "lines": 0,
    }
    assert drain(holder) == []


def test_a_co_holders_write_is_its_authors_event_and_the_others_snapshot() -> None:
    run = Run()
    r = run.open(profile(scope=Scope.SHARED, slug="curator"), "R")
    r.store.write("R", note("m1", "kiln runs hot"))
    assert [t for t, _ in _wire(drain(r))] == ["memory_revision", "memory_state"]
    c = run.open(profile(scope=Scope.SHARED, slug="curator"), "C")
    c.store.write("C", note("m2", "glaze needs two coats"))
    assert _wire(drain(c))[0] == (
        "memory_revision",
        {
            "name": "m2",
            "revision": 1,
            "change": "written",
            "description": "d",
            "body": "glaze needs two coats",
            "len": 21,
            "lines": 1,
        },
    )
    r_events = _wire(drain(r))
    assert [t for t, _ in r_events] == ["memory_state"]
    assert [m["name"] for m in r_events[0][1]["memories"]] == ["m1", "m2"]  # type: ignore[index]
    assert r_events[0][1]["moduleId"] == c.module_id == r.module_id == "memories-0"


def test_a_snapshot_carries_the_emitting_holders_scope_and_access() -> None:
    run = Run()
    root = run.open(profile(), "root")
    reader = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "reader", root)
    root.store.write("root", note("the-plan", "a canvas game"))
    state = snapshot(reader).to_wire()
    assert (state["moduleId"], state["scope"], state["writable"], state["count"]) == (
        "memories-0",
        "read-only",
        False,
        1,
    )
    assert drain(reader)[0].to_wire()["count"] == 1 and len(drain(root)) == 2
