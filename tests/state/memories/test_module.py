"""The memories kind in the module framework (seed 003; anchor-state §2-§4): a holder bound by its
scope in the agent tree, its roster row, its store ids through a fork and a transfer, what it
releases, and what it puts in its holder's prompt through the framework's hooks."""

from __future__ import annotations

import pytest

from gg.config.kinds import ModuleKind
from gg.config.memories import MemoryProfile, Scope, Strategy
from gg.errors import GgDefect
from gg.state.holdings import MODULE_CLASSES
from gg.state.memories import MemoryRefusal, ProfileStores
from gg.state.memories.module import MemoriesModule
from gg.state.module import Holder, Instance, Moment
from gg.state.modules import ModuleSet
from gg.state.storeids import StoreIds

from .world import SPELT, note, profile

M = ModuleKind.MEMORIES
H = ModuleKind.HISTORY


def spell(key: str) -> str:
    return f"gg.{key}"


class Run:
    """A run's store ids and `shared` registry, and holders opened the way a run opens them."""

    def __init__(self) -> None:
        self.ids = StoreIds()
        self.stores = ProfileStores()

    def holder(self, settings: MemoryProfile | None) -> Holder:
        capabilities = frozenset({"memories"}) if settings is not None else frozenset[str]()
        return Holder(capabilities, memories=settings, memory_stores=self.stores)

    def open(
        self, settings: MemoryProfile | None, agent_id: str, spawner: ModuleSet | None = None
    ) -> ModuleSet:
        return ModuleSet.open(self.holder(settings), self.ids, MODULE_CLASSES, Instance(agent_id, spawner))


def memories(modules: ModuleSet) -> MemoriesModule:
    module = modules.get(M)
    assert isinstance(module, MemoriesModule)
    return module


def row(modules: ModuleSet) -> dict[str, object]:
    return modules.roster()[1]


def test_an_isolated_holder_binds_a_store_of_its_own_and_states_its_scope_and_access() -> None:
    run = Run()
    root = run.open(profile(), "root")
    assert row(root) == {
        "kind": "memories",
        "moduleId": "memories-0",
        "enabled": True,
        "origin": "created",
        "scope": "isolated",
        "writable": True,
    }
    assert memories(root).holder.agent_id == "root"


def test_a_profile_without_memories_holds_none_and_reports_an_empty_id() -> None:
    run = Run()
    ids_before = run.ids.mint("memories")
    plain = run.open(None, "root")
    assert row(plain) == {"kind": "memories", "moduleId": "", "enabled": False, "writable": False}
    assert ids_before == "memories-0" and run.ids.mint("memories") == "memories-1"  # minted nothing


def test_the_worked_roster_example_shared_reviewers_hold_one_store_and_an_inheritor_the_roots() -> None:
    run = Run()
    root = run.open(profile(), "root")
    shared = profile(scope=Scope.SHARED, slug="reviewer")
    first, second = run.open(shared, "root.1", root), run.open(shared, "root.2", root)
    inheritor = run.open(profile(scope=Scope.INHERITED, slug="helper"), "root.3", root)
    reader = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "root.4", root)
    assert [(row(s)["moduleId"], row(s)["origin"]) for s in (first, second)] == [
        ("memories-1", "profile"),
        ("memories-1", "profile"),
    ]
    assert (row(inheritor)["moduleId"], row(inheritor)["origin"]) == ("memories-0", "inherited")
    assert (row(reader)["moduleId"], row(reader)["origin"], row(reader)["writable"]) == (
        "memories-0",
        "inherited",
        False,
    )


def test_an_inheritor_under_another_strategy_falls_back_to_a_store_of_its_own() -> None:
    run = Run()
    root = run.open(profile(Strategy.SCRATCHPAD), "root")
    child = run.open(profile(Strategy.MARKDOWN, Scope.INHERITED, slug="child"), "root.1", root)
    assert (row(child)["moduleId"], row(child)["origin"], row(child)["scope"]) == (
        "memories-1",
        "created",
        "inherited",
    )


def test_an_isolated_fork_copies_the_store_under_a_new_id_and_restamps_the_copy() -> None:
    run = Run()
    root = run.open(profile(), "root")
    memories(root).holder.store.write("root", note("m"))
    assert [type(p).__name__ for p in root.drain()] == ["MemoryRevision", "MemoryState"]
    copy, rows = root.fork(run.ids, Instance("root.f1"))
    assert rows[1].to_wire() == {
        "kind": "memories",
        "disposition": "copied",
        "from": "memories-0",
        "to": "memories-1",
    }
    twin = memories(copy).holder
    assert (twin.agent_id, twin.store is memories(root).holder.store) == ("root.f1", False)
    assert copy.drain() == []  # nothing undrained came with the copy
    twin.store.update("root.f1", note("m", "the copy's"))
    (revision, _) = copy.drain()
    assert revision.to_wire()["revision"] == 2  # the counter carried
    assert root.drain() == [] and memories(root).holder.store.read("m").body == "b"  # the two diverge


def test_an_inherited_scope_fork_links_the_store_and_each_is_told_of_the_others_writes_once() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.INHERITED), "root")
    copy, rows = root.fork(run.ids, Instance("root.f1"))
    assert rows[1].to_wire() == {
        "kind": "memories",
        "disposition": "linked",
        "from": "memories-0",
        "to": "memories-0",
    }
    assert (row(copy)["moduleId"], row(copy)["origin"]) == ("memories-0", "forked")
    memories(copy).holder.store.write("root.f1", note("from-copy", "glaze twice"))
    told = memories(root).notice(spell)
    assert told is not None and "`from-copy`" in told and "glaze twice" in told
    assert memories(root).notice(spell) is None  # once
    assert memories(copy).notice(spell) is None  # never about its own write
    assert [type(p).__name__ for p in root.drain()] == ["MemoryState"]  # re-stated, not claimed


def test_an_exec_to_another_strategy_starts_a_fresh_store_and_releases_the_old_one() -> None:
    run = Run()
    root = run.open(profile(Strategy.SCRATCHPAD), "root")
    old = memories(root).holder.store
    moved = root.transfer(
        run.holder(profile(Strategy.MARKDOWN, slug="worker")), frozenset({H, M}), run.ids, Instance("root@2")
    )
    assert moved.rows[1].to_wire() == {
        "kind": "memories",
        "disposition": "initialized",
        "from": "memories-0",
        "to": "memories-1",
    }
    assert len(moved.reasons) == 1 and "`scratchpad`" in moved.reasons[0] and "`markdown`" in moved.reasons[0]
    assert memories(moved.modules).holder.strategy is Strategy.MARKDOWN and old.holders == 0


def test_a_successor_that_keeps_no_memories_drops_them_and_the_store_lets_its_holder_go() -> None:
    run = Run()
    root = run.open(profile(), "root")
    store = memories(root).holder.store
    moved = root.transfer(run.holder(None), frozenset({H}), run.ids, Instance("root@2"))
    assert moved.rows[1].to_wire() == {"kind": "memories", "disposition": "dropped", "from": "memories-0"}
    assert store.holders == 0 and moved.modules.get(M) is None


def test_a_shared_successor_is_rebound_to_its_own_profiles_store_under_that_id() -> None:
    run = Run()
    root = run.open(profile(), "root")
    moved = root.transfer(
        run.holder(profile(scope=Scope.SHARED, slug="worker")), frozenset({H, M}), run.ids, Instance("root@2")
    )
    assert moved.rows[1].to_wire() == {
        "kind": "memories",
        "disposition": "carried",
        "from": "memories-0",
        "to": "memories-1",
    }
    assert (row(moved.modules)["moduleId"], row(moved.modules)["origin"]) == ("memories-1", "profile")


def test_caps_tighten_forward_for_a_sole_holder_contents_kept_and_the_next_write_refused() -> None:
    run = Run()
    root = run.open(profile(max_len_per_memory=4096), "root")
    for name in ("a", "b", "c"):
        memories(root).holder.store.write("root", note(name, "x" * 4000))
    tight = run.holder(profile(max_len_per_memory=100, slug="worker"))
    moved = root.transfer(tight, frozenset({H, M}), run.ids, Instance("root@2"))
    successor = memories(moved.modules).holder
    assert (
        moved.rows[1].to_wire()["disposition"] == "carried" and row(moved.modules)["origin"] == "transferred"
    )
    assert [m.length for m in successor.store.memories] == [4000, 4000, 4000]
    with pytest.raises(MemoryRefusal) as refused:
        successor.store.write("root@2", note("d", "y" * 101))
    assert "100-character cap" in refused.value.said(SPELT)


def test_caps_stay_as_they_are_when_the_store_has_another_holder() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.INHERITED, max_len_per_memory=4096), "root")
    copy, _ = root.fork(run.ids, Instance("root.f1"))  # a linked co-holder, still running
    moved = root.transfer(
        run.holder(profile(scope=Scope.INHERITED, max_len_per_memory=100, slug="worker")),
        frozenset({H, M}),
        run.ids,
        Instance("root@2"),
    )
    assert memories(moved.modules).holder.store.caps.max_len_per_memory == 4096
    assert memories(copy).holder.store is memories(moved.modules).holder.store


def test_a_holder_that_bound_a_filled_store_builds_its_block_at_its_first_turn() -> None:
    run = Run()
    root = run.open(profile(), "root")
    assert memories(root).block(Moment.FIRST_TURN, spell) is None  # its own store, empty
    memories(root).holder.store.write("root", note("the-plan", "a canvas game", "what we build"))
    child = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "root.1", root)
    block = memories(child).block(Moment.FIRST_TURN, spell)
    assert block is not None and "a canvas game" in block
    assert memories(root).block(Moment.FIRST_TURN, spell) is None  # created, not filled by another
    rebuilt = memories(root).block(Moment.COMPACTION, spell)
    assert rebuilt is not None and "a canvas game" in rebuilt


def test_a_memories_module_bound_for_a_profile_without_memories_is_ggs_own_defect() -> None:
    with pytest.raises(GgDefect):
        ModuleSet.open(Holder(frozenset({"memories"})), StoreIds(), MODULE_CLASSES, Instance("root"))


def test_an_agent_that_ends_lets_its_store_go() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.SHARED), "root")
    store = memories(root).holder.store
    root.release()
    assert store.holders == 0


def test_a_copy_is_an_independent_store_with_the_same_contents() -> None:
    run = Run()
    root = run.open(profile(), "root")
    memories(root).holder.store.write("root", note("m", "one"))
    twin = memories(root).copy().holder
    twin.store.update("root", note("m", "two"))
    assert memories(root).holder.store.read("m").body == "one" and twin.store.read("m").body == "two"
