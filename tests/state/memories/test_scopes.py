"""Which store a new holder binds, by its scope: the pure rule, and the holders a run opens."""

from __future__ import annotations

import pytest

from gg.config.kinds import Origin
from gg.config.memories import Scope, Strategy
from gg.state.memories import ScopeSource, decide_binding

from .world import Run, profile

MARKDOWN, PAD = Strategy.MARKDOWN, Strategy.SCRATCHPAD


@pytest.mark.parametrize(
    ("scope", "spawner", "source", "origin", "writable"),
    [
        (Scope.ISOLATED, PAD, ScopeSource.OWN, Origin.CREATED, True),
        (Scope.SHARED, PAD, ScopeSource.PROFILE, Origin.PROFILE, True),
        (Scope.SHARED, None, ScopeSource.PROFILE, Origin.PROFILE, True),
        (Scope.INHERITED, PAD, ScopeSource.SPAWNER, Origin.INHERITED, True),
        (Scope.INHERITED, None, ScopeSource.OWN, Origin.CREATED, True),
        (Scope.INHERITED, MARKDOWN, ScopeSource.OWN, Origin.CREATED, True),
        (Scope.READ_ONLY, PAD, ScopeSource.SPAWNER, Origin.INHERITED, False),
        (Scope.READ_ONLY, None, ScopeSource.OWN, Origin.CREATED, False),
        (Scope.READ_ONLY, MARKDOWN, ScopeSource.OWN, Origin.CREATED, False),
    ],
)
def test_the_binding_follows_the_scope_and_the_spawners_strategy(
    scope: Scope, spawner: Strategy | None, source: ScopeSource, origin: Origin, writable: bool
) -> None:
    decision = decide_binding(profile(PAD, scope), spawner)
    assert (decision.source, decision.origin, decision.writable) == (source, origin, writable)


def test_an_isolated_root_spawning_shared_reviewers_binds_them_one_profile_store() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.ISOLATED), "root")
    reviewers = [
        run.open(profile(scope=Scope.SHARED, slug="reviewer"), f"reviewer-{n}", root) for n in (1, 2)
    ]
    inheritor = run.open(profile(scope=Scope.INHERITED, slug="helper"), "helper", root)
    reader = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "reader", root)
    rows = [(h.module_id, h.origin, h.scope, h.writable) for h in (root, *reviewers, inheritor, reader)]
    assert rows == [
        ("memories-0", Origin.CREATED, Scope.ISOLATED, True),
        ("memories-1", Origin.PROFILE, Scope.SHARED, True),
        ("memories-1", Origin.PROFILE, Scope.SHARED, True),
        ("memories-0", Origin.INHERITED, Scope.INHERITED, True),
        ("memories-0", Origin.INHERITED, Scope.READ_ONLY, False),
    ]
    assert reviewers[0].store is reviewers[1].store and inheritor.store is root.store is reader.store


def test_a_shared_store_keeps_the_caps_of_the_instance_that_first_bound_it() -> None:
    run = Run()
    first = run.open(profile(scope=Scope.SHARED, slug="curator", max_count=3), "curator")
    later = run.open(profile(scope=Scope.SHARED, slug="curator", max_count=9), "curator-2")
    assert later.store is first.store and later.store.caps.max_count == 3


def test_inheritance_chains_and_write_access_belongs_to_the_holder() -> None:
    run = Run()
    root = run.open(profile(), "root")
    reader = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "reader", root)
    grandchild = run.open(profile(scope=Scope.INHERITED, slug="helper"), "helper", reader)
    assert grandchild.store is root.store and grandchild.module_id == "memories-0"
    assert (reader.writable, grandchild.writable) == (False, True)


def test_an_inheritor_organized_otherwise_than_its_spawner_gets_a_store_of_its_own() -> None:
    run = Run()
    root = run.open(profile(PAD), "root")
    child = run.open(profile(MARKDOWN, Scope.INHERITED, slug="worker"), "worker", root)
    assert (child.module_id, child.origin, child.strategy) == ("memories-1", Origin.CREATED, MARKDOWN)


def test_a_read_only_agent_with_no_spawner_to_inherit_from_reads_its_own_store_only() -> None:
    root = Run().open(profile(scope=Scope.READ_ONLY), "root")
    assert (root.origin, root.scope, root.writable) == (Origin.CREATED, Scope.READ_ONLY, False)
    assert list(root.offered) == []  # a scratchpad is read in the window: no call reads it


def test_every_fresh_store_mints_the_next_id() -> None:
    run = Run()
    ids = [run.open(profile(), f"agent-{n}").module_id for n in range(3)]
    assert ids == ["memories-0", "memories-1", "memories-2"]
