"""The worked examples of the research notes (`anchor-state.md` §2 examples 2–4, §4) as assertions
on the memories module alone."""

from __future__ import annotations

from gg.config.kinds import Origin
from gg.config.memories import Scope
from gg.config.memories.strategy import Call
from gg.state.memories import drain, fork, notice_text

from .world import Run, note, profile

NAMES = {call: f"gg.memories.{call.value}" for call in Call}


def test_example_2_an_inherited_scope_forker_stays_linked_and_both_are_told_of_the_others_writes() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.INHERITED), "root")
    forked = fork(root, "root#2", run.ids)
    copy = forked.holder
    assert forked.linked
    assert (copy.module_id, copy.origin, copy.writable) == (root.module_id, Origin.FORKED, True)
    root.store.write("root", note("from-root", "the original's"))
    copy.store.write("root#2", note("from-copy", "the copy's"))
    to_copy, to_root = notice_text(copy, NAMES), notice_text(root, NAMES)
    assert to_copy is not None and "`from-root`" in to_copy and "from-copy" not in to_copy
    assert to_root is not None and "`from-copy`" in to_root and "from-root" not in to_root


def test_example_3_a_shared_store_drains_one_revision_on_its_authors_stream_and_notices_the_other_once() -> (
    None
):
    run = Run()
    r = run.open(profile(scope=Scope.SHARED, slug="curator"), "R")
    r.store.write("R", note("m1", "kiln runs hot"))
    drain(r)
    c = r.share("C", origin=Origin.PROFILE)
    assert c.store.head == 1 and drain(c) == [] and notice_text(c, NAMES) is None  # cursors at 1
    c.store.write("C", note("m2", "glaze needs two coats", "helper-note"))
    c_events = [(e.TYPE.value, e.to_wire()) for e in drain(c)]
    assert [t for t, _ in c_events] == ["memory_revision", "memory_state"]
    assert {k: c_events[0][1][k] for k in ("name", "revision", "change")} == {
        "name": "m2",
        "revision": 1,
        "change": "written",
    }
    assert [e.TYPE.value for e in drain(r)] == ["memory_state"]
    notice = notice_text(r, NAMES)
    assert notice is not None and notice.count("`m2`") == 1 and "glaze needs two coats" in notice
    assert "m1" not in notice
    assert notice_text(r, NAMES) is None and notice_text(c, NAMES) is None


def test_example_4_the_revision_counter_runs_write_update_delete_write() -> None:
    holder = Run().open(profile(), "root")
    holder.store.write("root", note("m", "one"))
    holder.store.update("root", note("m", "two"))
    holder.store.delete("root", "m")
    holder.store.write("root", note("m", "again"))
    revisions = [e.to_wire() for e in drain(holder)[:-1]]
    assert [(r["revision"], r["change"]) for r in revisions] == [
        (1, "written"),
        (2, "updated"),
        (3, "deleted"),
        (4, "written"),
    ]


def test_the_store_identity_example_an_isolated_root_and_two_shared_reviewers() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.ISOLATED), "root")
    first = run.open(profile(scope=Scope.SHARED, slug="reviewer"), "reviewer-1", root)
    second = run.open(profile(scope=Scope.SHARED, slug="reviewer"), "reviewer-2", root)
    inherited = run.open(profile(scope=Scope.INHERITED, slug="helper"), "helper", root)
    read_only = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "reader", root)
    assert (root.module_id, root.origin) == ("memories-0", Origin.CREATED)
    for reviewer in (first, second):
        assert (reviewer.module_id, reviewer.origin, reviewer.scope) == (
            "memories-1",
            Origin.PROFILE,
            Scope.SHARED,
        )
    assert (inherited.module_id, inherited.origin) == ("memories-0", Origin.INHERITED)
    assert (read_only.module_id, read_only.origin, read_only.writable) == (
        "memories-0",
        Origin.INHERITED,
        False,
    )
