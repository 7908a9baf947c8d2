"""The module index (seed 003; anchor-state §2, §4, §6): holders from rosters, lifetime from
transitions, contents from the latest snapshot, sharing read off origins."""

from __future__ import annotations

from typing import Any

from console.conftest import Records
from console.scenario import Recorder, row
from gg.console.modules import fold_modules
from gg.console.vocabulary import ModuleKind


def forked_root(memory_scope: str = "isolated") -> list[dict[str, Any]]:
    """Worked example 1 (and 2 with an inherited scope): root forks a copy of itself."""
    r = Recorder()
    r.roster(
        "root",
        history=row("history-0", "created"),
        memories=row("memories-0", "created", scope=memory_scope),
        tasks=row("tasks-0", "created"),
        board=row("board-0", "run"),
        skills=row("skills-0", "created"),
    )
    linked = memory_scope != "isolated"
    memories_to = "memories-0" if linked else "memories-1"
    r.emit(
        "agent_transition",
        "root",
        1,
        kind="fork",
        toAgentId="root.f1",
        profileId="root",
        modules=[
            {"kind": "history", "disposition": "copied", "from": "history-0", "to": "history-1"},
            {
                "kind": "memories",
                "disposition": "linked" if linked else "copied",
                "from": "memories-0",
                "to": memories_to,
            },
            {"kind": "tasks", "disposition": "copied", "from": "tasks-0", "to": "tasks-1"},
            {"kind": "board", "disposition": "linked", "from": "board-0", "to": "board-0"},
            {"kind": "skills", "disposition": "copied", "from": "skills-0", "to": "skills-1"},
            {"kind": "archive", "disposition": "absent"},
        ],
    )
    r.emit("agent_spawned", "root.f1", 1, parentAgentId="root", profileId="root", depth=1)
    r.roster(
        "root.f1",
        history=row("history-1", "forked"),
        memories=row(memories_to, "forked", scope=memory_scope),
        tasks=row("tasks-1", "forked"),
        board=row("board-0", "run"),
        skills=row("skills-1", "forked"),
    )
    return r.records


def test_a_fork_copies_each_kind_into_a_new_store_and_links_the_board():
    index = fold_modules(forked_root())
    copy = {store.kind: store.id for store in index.held_by("root.f1")}
    assert copy == {
        ModuleKind.HISTORY: "history-1",
        ModuleKind.MEMORIES: "memories-1",
        ModuleKind.TASKS: "tasks-1",
        ModuleKind.BOARD: "board-0",
        ModuleKind.SKILLS: "skills-1",
    }
    board = index.stores["board-0"]
    assert [h.agent_id for h in board.holders] == ["root", "root.f1"]
    assert board.shared and not board.handed_on


def test_a_copy_names_its_source_and_gets_no_created_entry_of_its_own():
    index = fold_modules(forked_root())
    lifetime = index.stores["history-1"].lifetime
    assert [(e.what, e.agent, e.to_agent, e.succession, e.other_id) for e in lifetime] == [
        ("copied", "root", "root.f1", "fork", "history-0")
    ]
    assert [e.what for e in index.stores["history-0"].lifetime] == ["created"]


def test_an_inherited_scope_links_one_memories_store_to_both_holders():
    index = fold_modules(forked_root("inherited"))
    memories = index.stores["memories-0"]
    assert [(h.agent_id, h.origin) for h in memories.holders] == [("root", "created"), ("root.f1", "forked")]
    assert memories.shared
    assert [e.what for e in memories.lifetime] == ["created", "linked"]
    assert "memories-1" not in index.stores


def test_a_store_passed_on_by_exec_is_handed_on_and_never_shared(crew_records: Records):
    index = fold_modules(crew_records)
    history = index.stores["history-0"]
    assert [(h.agent_id, h.origin) for h in history.holders] == [
        ("root", "created"),
        ("root@2", "transferred"),
    ]
    assert history.handed_on and not history.shared
    assert [(e.what, e.succession) for e in history.lifetime] == [("created", None), ("carried", "exec")]
    assert history.released_by == {"root"}
    assert not history.dropped


def test_every_holder_of_a_shared_profile_store_shares_it(crew_records: Records):
    index = fold_modules(crew_records)
    memories = index.stores["memories-1"]
    assert [(h.agent_id, h.origin, h.scope) for h in memories.holders] == [
        ("root.1", "profile", "shared"),
        ("root.2", "profile", "shared"),
        ("root.3", "profile", "shared"),  # the board's implementer joins the workers' store
    ]
    assert memories.shared and len(memories.concurrent) == 3


def test_a_strategy_mismatch_releases_the_old_store_and_creates_the_new_one(crew_records: Records):
    index = fold_modules(crew_records)
    old, new = index.stores["memories-0"], index.stores["memories-4"]
    assert [(e.what, e.other_id) for e in old.lifetime] == [("created", None), ("released", "memories-4")]
    assert old.dropped
    assert [(e.what, e.agent, e.succession) for e in new.lifetime] == [("created", "root@2", "exec")]
    assert not new.dropped


def test_a_store_is_dropped_only_when_every_holder_released_it(crew_records: Records):
    index = fold_modules(crew_records)
    board = index.stores["board-0"]
    assert "root" in board.released_by  # carried on by the exec
    assert len(board.holders) == 7 and not board.dropped
    archive = index.stores["archive-0"]  # the closer keeps none: the exec dropped it
    assert [(e.what, e.succession) for e in archive.lifetime] == [("created", None), ("dropped", "exec")]
    assert archive.dropped


def test_a_dropped_kind_releases_its_store():
    r = Recorder()
    r.roster("root", history=row("history-0", "created"), tasks=row("tasks-0", "created"))
    r.emit(
        "agent_transition",
        "root",
        1,
        kind="fsm",
        toAgentId="root.1",
        profileId="build",
        state="build",
        modules=[
            {"kind": "history", "disposition": "carried", "from": "history-0", "to": "history-0"},
            {"kind": "tasks", "disposition": "dropped", "from": "tasks-0"},
        ],
    )
    r.roster("root.1", history=row("history-0", "transferred"))
    index = fold_modules(r.records)
    tasks = index.stores["tasks-0"]
    assert [(e.what, e.succession) for e in tasks.lifetime] == [("created", None), ("dropped", "fsm")]
    assert tasks.dropped
    assert index.store_of("root.1", ModuleKind.TASKS) is None


def test_contents_are_the_latest_snapshot_of_the_store_whoever_emitted_it(crew_records: Records):
    index = fold_modules(crew_records)
    memories = index.stores["memories-1"]
    assert memories.snapshot is not None
    assert memories.snapshot_agent == "root.3"  # the last worker to write it
    assert [m["name"] for m in memories.snapshot["memories"]] == ["tally"]
    tasks = index.stores["tasks-0"].snapshot
    assert tasks is not None and [t["id"] for t in tasks["tasks"]] == ["bolts", "nuts", "washers", "report"]


def test_a_revision_is_a_write_to_its_authors_memories_store(crew_records: Records):
    index = fold_modules(crew_records)
    assert index.stores["memories-1"].revisions == 3  # each worker wrote it once
    assert index.stores["memories-1"].written
    assert not index.stores["memories-3"].written  # the inspector's: only ever an empty snapshot


def test_a_disabled_kind_mints_no_store_and_is_held_by_nobody(crew_records: Records):
    index = fold_modules(crew_records)
    assert index.store_of("root.4", ModuleKind.ARCHIVE) is None
    assert "" not in index.stores
    assert not index.holdings["root.4"][ModuleKind.ARCHIVE].enabled


def test_holdings_list_in_kind_order(crew_records: Records):
    index = fold_modules(crew_records)
    assert [s.kind.value for s in index.held_by("root")] == [
        "history",
        "memories",
        "tasks",
        "board",
        "skills",
        "archive",
    ]
    assert [s.kind.value for s in index.held_by("root.3")] == ["history", "memories", "board", "skills"]


def test_a_run_without_rosters_infers_one_window_per_instance():
    index = fold_modules([], ["root", "root.1"])
    assert sorted(index.stores) == ["legacy:root.1:history", "legacy:root:history"]
    assert all(store.inferred for store in index.stores.values())
    assert not index.rosters_reported
    assert not index.offers_modules_tab()


def test_the_modules_tab_is_offered_when_any_instance_holds_a_module_backed_kind(crew_records: Records):
    only_history = Recorder()
    only_history.roster("root", history=row("history-0", "created"))
    assert not fold_modules(only_history.records).offers_modules_tab()
    assert fold_modules(crew_records).offers_modules_tab()


def test_a_board_is_known_from_its_roster_rows(crew_records: Records):
    assert fold_modules(crew_records).has_board()
    assert not fold_modules(forked_root_without_board()).has_board()


def forked_root_without_board() -> list[dict[str, Any]]:
    r = Recorder()
    r.roster(
        "root", history=row("history-0", "created"), memories=row("memories-0", "created", scope="isolated")
    )
    return r.records
