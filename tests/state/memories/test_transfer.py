"""A fork's copy of a holder (linked or copied by the forker's scope) and a successor's take-over
(carried, dropped, or incompatible; caps re-pointed only for a sole holder, tightening forward)."""

from __future__ import annotations

from gg.config.kinds import Origin
from gg.config.memories import Scope, Strategy
from gg.errors import ErrorCode
from gg.state.memories import Carried, Dropped, Incompatible, MemoryRefusal, adopt, drain, fork, snapshot

from .world import Run, note, profile


def test_an_isolated_forkers_store_is_copied_under_a_new_id_with_its_counters_carried() -> None:
    run = Run()
    root = run.open(profile(), "root")
    for body in ("one", "two"):
        (root.store.write if body == "one" else root.store.update)("root", note("m", body))
    root.store.delete("root", "m")
    root.store.write("root", note("m", "three"))
    forked = fork(root, "root#2", run.ids)
    copy = forked.holder
    assert not forked.linked
    assert (copy.module_id, copy.origin, copy.agent_id, copy.scope) == (
        "memories-1",
        Origin.FORKED,
        "root#2",
        Scope.ISOLATED,
    )
    copy.store.update("root#2", note("m", "four in the copy"))
    root.store.update("root", note("m", "four in the original"))
    [copied] = [e.to_wire() for e in drain(copy) if e.TYPE.value == "memory_revision"]
    original = [e.to_wire() for e in drain(root) if e.TYPE.value == "memory_revision"]
    assert (copied["revision"], copied["body"]) == (5, "four in the copy")
    assert [(e["revision"], e["change"]) for e in original] == [
        (1, "written"),
        (2, "updated"),
        (3, "deleted"),
        (4, "written"),
        (5, "updated"),
    ]


def test_a_fork_leaves_undrained_revisions_with_the_original() -> None:
    run = Run()
    root = run.open(profile(), "root")
    root.store.write("root", note("m0", "written just before the fork"))
    copy = fork(root, "root#2", run.ids).holder
    assert drain(copy) == [] and copy.take_news() == ()
    assert [m["name"] for m in snapshot(copy).to_wire()["memories"]] == ["m0"]  # type: ignore[union-attr]
    copy.store.write("root#2", note("m-copy", "the copy's own"))
    assert [e.to_wire()["name"] for e in drain(copy)[:-1]] == ["m-copy"]
    assert [e.to_wire().get("name") for e in drain(root)[:-1]] == ["m0"]


def test_a_forker_scoped_other_than_isolated_stays_linked_to_its_copy() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.INHERITED), "root")
    forked = fork(root, "root#2", run.ids)
    copy = forked.holder
    assert forked.linked and copy.store is root.store
    assert (copy.module_id, copy.origin, copy.writable) == ("memories-0", Origin.FORKED, True)
    root.store.write("root", note("from-root"))
    copy.store.write("root#2", note("from-copy"))
    assert [e.name for e in copy.take_news()] == ["from-root"]
    assert [e.name for e in root.take_news()] == ["from-copy"]


def test_a_read_only_forkers_copy_is_read_only() -> None:
    run = Run()
    root = run.open(profile(), "root")
    reader = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "reader", root)
    copy = fork(reader, "reader#2", run.ids).holder
    assert copy.store is root.store and not copy.writable


def test_a_successor_whose_profile_keeps_no_memories_drops_them() -> None:
    run = Run()
    root = run.open(profile(), "root")
    assert adopt(root, None, "worker", run.registry, run.ids) == Dropped()
    assert root.store.holders == 0


def test_a_successor_organizing_memories_otherwise_is_told_why_they_were_not_carried() -> None:
    run = Run()
    root = run.open(profile(Strategy.SCRATCHPAD), "root")
    root.store.write("root", note("m1"))
    adoption = adopt(root, profile(Strategy.MARKDOWN, slug="worker"), "worker", run.registry, run.ids)
    assert isinstance(adoption, Incompatible)
    assert "`scratchpad`" in adoption.reason and "`markdown`" in adoption.reason


def test_a_carried_store_keeps_its_id_and_the_successor_starts_at_its_head() -> None:
    run = Run()
    root = run.open(profile(), "root")
    root.store.write("root", note("m1"))
    drain(root)
    adoption = adopt(root, profile(slug="worker"), "worker", run.registry, run.ids)
    assert isinstance(adoption, Carried)
    successor = adoption.holder
    assert (successor.module_id, successor.origin, successor.agent_id) == (
        "memories-0",
        Origin.TRANSFERRED,
        "worker",
    )
    assert successor.take_news() == () and drain(successor) == []
    assert successor.store.holders == 1


def test_a_sole_holders_successor_tightens_the_caps_forward() -> None:
    run = Run()
    root = run.open(profile(max_len_per_memory=0), "root")
    for name in ("a", "b", "c"):
        root.store.write("root", note(name, "x" * 5000))
    adoption = adopt(root, profile(slug="worker", max_len_per_memory=4096), "worker", run.registry, run.ids)
    assert isinstance(adoption, Carried)
    store = adoption.holder.store
    assert store.caps.max_len_per_memory == 4096 and [m.length for m in store.memories] == [5000] * 3
    try:
        store.write("worker", note("d", "x" * 4097))
    except MemoryRefusal as refusal:
        assert refusal.code is ErrorCode.LIMIT_EXCEEDED
    else:
        raise AssertionError("the write over the tightened cap was accepted")


def test_a_store_with_another_live_holder_keeps_its_caps_across_a_transfer() -> None:
    run = Run()
    root = run.open(profile(max_count=5), "root")
    helper = run.open(profile(scope=Scope.INHERITED, slug="helper"), "helper", root)
    adoption = adopt(root, profile(slug="worker", max_count=1), "worker", run.registry, run.ids)
    assert isinstance(adoption, Carried) and adoption.holder.store.caps.max_count == 5
    assert helper.co_holders() == 1


def test_a_shared_successor_rebinds_its_own_profiles_store_under_that_id() -> None:
    run = Run()
    root = run.open(profile(), "root")
    adoption = adopt(root, profile(scope=Scope.SHARED, slug="curator"), "curator", run.registry, run.ids)
    assert isinstance(adoption, Carried)
    assert (adoption.holder.module_id, adoption.holder.origin) == ("memories-1", Origin.PROFILE)
    assert adoption.holder.store is run.registry.bind(profile(scope=Scope.SHARED, slug="curator"), run.ids)[0]
    assert root.store.holders == 0


def test_a_read_only_successor_reads_the_carried_store_only() -> None:
    run = Run()
    root = run.open(profile(Strategy.MARKDOWN), "root")
    adoption = adopt(
        root, profile(Strategy.MARKDOWN, Scope.READ_ONLY, slug="auditor"), "auditor", run.registry, run.ids
    )
    assert isinstance(adoption, Carried)
    assert not adoption.holder.writable and [c.value for c in adoption.holder.offered] == ["read_memory"]


def test_the_framework_may_say_whether_the_successor_is_the_sole_holder() -> None:
    run = Run()
    root = run.open(profile(max_count=5), "root")
    told = adopt(root, profile(slug="worker", max_count=1), "worker", run.registry, run.ids, sole=False)
    assert isinstance(told, Carried) and told.holder.store.caps.max_count == 5
    again = adopt(told.holder, profile(slug="next", max_count=2), "next", run.registry, run.ids, sole=True)
    assert isinstance(again, Carried) and again.holder.store.caps.max_count == 2
