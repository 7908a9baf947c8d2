"""The Agents tab's badges and notes, per profile and kind (seed 003, "Agents tab")."""

from __future__ import annotations

from console.conftest import Records
from console.scenario import Recorder, row
from gg.console.distribution import Badge, profile_rows, store_reach
from gg.console.modules import fold_modules
from gg.console.vocabulary import ModuleKind
from gg.record.agents import fold_agents


def badges(records, profile):
    tree = fold_agents(records, "completed")
    index = fold_modules(records, [i.id for i in tree.ordered()])
    profile_of = {a: i.profile for a, i in tree.instances.items()}
    instances = [i.id for i in tree.profiles()[profile]]
    return {r.kind: r for r in profile_rows(index, instances, profile_of)}


def test_one_store_bound_by_every_instance_at_once_is_agent_scoped_and_shown_inline(crew_records: Records):
    rows = badges(crew_records, "worker")
    assert rows[ModuleKind.MEMORIES].badge is Badge.AGENT_SCOPED
    assert rows[ModuleKind.MEMORIES].inline
    assert [s.id for s in rows[ModuleKind.MEMORIES].stores] == ["memories-1"]


def test_every_instance_holding_its_own_store_is_per_instance(crew_records: Records):
    rows = badges(crew_records, "worker")
    assert rows[ModuleKind.HISTORY].badge is Badge.PER_INSTANCE
    assert rows[ModuleKind.SKILLS].badge is Badge.PER_INSTANCE
    assert not rows[ModuleKind.HISTORY].inline
    planner = badges(crew_records, "root")  # the root and its fork's copies
    assert {planner[k].badge for k in (ModuleKind.MEMORIES, ModuleKind.TASKS, ModuleKind.ARCHIVE)} == {
        Badge.PER_INSTANCE
    }


def test_the_board_is_run_global_for_every_profile(crew_records: Records):
    for profile in ("root", "worker", "inspector", "closer"):
        assert badges(crew_records, profile)[ModuleKind.BOARD].badge is Badge.RUN_GLOBAL


def test_a_store_an_exec_carried_reads_handed_on_for_the_successor_profile(crew_records: Records):
    rows = badges(crew_records, "closer")
    assert rows[ModuleKind.HISTORY].badge is Badge.HANDED_ON
    assert rows[ModuleKind.TASKS].badge is Badge.HANDED_ON
    assert rows[ModuleKind.MEMORIES].badge is Badge.PER_INSTANCE  # re-initialised: a store of its own


def test_a_store_owned_by_a_spawner_of_another_profile_is_run_global():
    r = Recorder()
    r.emit("agent_spawned", "root", profileId="lead", depth=0)
    r.roster(
        "root", history=row("history-0", "created"), memories=row("memories-0", "created", scope="isolated")
    )
    r.emit("agent_spawned", "root.a", parentAgentId="root", profileId="helper", depth=1)
    r.roster(
        "root.a",
        history=row("history-1", "created"),
        memories=row("memories-0", "inherited", scope="inherited"),
    )
    assert badges(r.records, "helper")[ModuleKind.MEMORIES].badge is Badge.RUN_GLOBAL


def test_several_stores_one_genuinely_shared_are_split():
    r = Recorder()
    for n, store, origin in (
        (1, "memories-1", "profile"),
        (2, "memories-1", "profile"),
        (3, "memories-2", "created"),
    ):
        r.emit("agent_spawned", f"w.{n}", parentAgentId="root", profileId="worker", depth=1)
        r.roster(
            f"w.{n}", history=row(f"history-{n}", "created"), memories=row(store, origin, scope="shared")
        )
    rows = badges(r.records, "worker")
    assert rows[ModuleKind.MEMORIES].badge is Badge.SPLIT
    assert rows[ModuleKind.MEMORIES].notes == (
        "declared scope: shared, observed: 2 stores (memories-1, memories-2); a succession re-bound the"
        " profile's store",
    )


def test_an_inherited_scope_that_fell_back_is_noted():
    r = Recorder()
    r.roster("root", history=row("history-0", "created"))
    for n in (1, 2):
        r.emit("agent_spawned", f"h.{n}", parentAgentId="root", profileId="helper", depth=1)
        r.roster(
            f"h.{n}",
            history=row(f"history-{n}", "created"),
            memories=row(f"memories-{n}", "created", scope="inherited"),
        )
    rows = badges(r.records, "helper")
    assert rows[ModuleKind.MEMORIES].badge is Badge.PER_INSTANCE
    (note,) = rows[ModuleKind.MEMORIES].notes
    assert note.startswith("declared scope: inherited, observed: each of the 2 instances got its own store")


def test_no_notes_are_written_for_a_run_without_rosters():
    tree = fold_agents([], "completed")
    index = fold_modules([], ["root"])
    rows = profile_rows(index, ["root"], {"root": "root"})
    assert [(r.kind, r.badge, r.notes) for r in rows] == [(ModuleKind.HISTORY, Badge.PER_INSTANCE, ())]
    assert tree.root == "root"


def test_a_store_row_names_its_profile_the_profiles_it_was_handed_through_run_global_or_dropped(
    crew_records: Records,
):
    records = crew_records
    tree = fold_agents(records, "completed")
    index = fold_modules(records)
    profile_of = {a: i.profile for a, i in tree.instances.items()}
    assert store_reach(index.stores["memories-1"], profile_of) == "worker"
    assert store_reach(index.stores["board-0"], profile_of) == "run-global"
    assert store_reach(index.stores["memories-0"], profile_of) == "(dropped)"
    # handed on from one profile to another: it passed through them, it was never held run-wide
    assert store_reach(index.stores["history-0"], profile_of) == "root → closer"


def test_an_inherited_scope_gg_dispatched_is_noted_even_for_one_instance(crew_records: Records):
    (note,) = badges(crew_records, "inspector")[ModuleKind.MEMORIES].notes
    assert note.startswith("declared scope: inherited, observed: its one instance got its own store")
    assert "gg dispatched it (a board's implementer or reviewer)" in note
    assert badges(crew_records, "worker")[ModuleKind.MEMORIES].notes == ()  # `shared`, and one store
