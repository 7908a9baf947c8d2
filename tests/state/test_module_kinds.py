"""The task list and the board as modules of a set (seed 003): ids, roster rows, fork and transfer
dispositions, the worked examples of anchor-state §2 and §3 on the two kinds."""

from __future__ import annotations

from typing import Any

import pytest

from gg.config.kinds import ModuleKind
from gg.config.modules import BoardCaps, TaskListSettings, TaskMode
from gg.errors import ErrorCode, GgDefect
from gg.state.board import Board, BoardModule, BoardSeat, IssuePolicy, NewIssue
from gg.state.dispositions import Row, exec_carries
from gg.state.holdings import MODULE_CLASSES
from gg.state.module import Holder
from gg.state.modules import ModuleSet, receiving_kinds
from gg.state.refusal import Refusal
from gg.state.storeids import StoreIds
from gg.state.tasks import TaskListModule
from gg.state.window import Band, Window

H, T, B = ModuleKind.HISTORY, ModuleKind.TASKS, ModuleKind.BOARD


def _run_board(ids: StoreIds) -> BoardSeat:
    return BoardSeat(Board(BoardCaps(5, 10, 1)), ids.mint("board"))


def _holder(
    max_tasks: int | None = 10, seat: BoardSeat | None = None, capabilities: frozenset[str] = frozenset()
) -> Holder:
    settings: dict[ModuleKind, object] = {}
    if max_tasks is not None:
        settings[T] = TaskListSettings(max_tasks, TaskMode.SIMPLE)
        capabilities |= {"tasks"}
    if seat is not None:
        settings[B] = seat
    return Holder(capabilities, run_has_board=seat is not None, settings=settings)


def _rows(rows: list[Row]) -> list[tuple[str, str, str | None, str | None]]:
    return [(r.kind.value, r.disposition.value, r.source, r.target) for r in rows]


def _tasks(modules: ModuleSet) -> TaskListModule:
    module = modules.typed(T, TaskListModule)
    assert module is not None
    return module


def _board(modules: ModuleSet) -> BoardModule:
    module = modules.typed(B, BoardModule)
    assert module is not None
    return module


def _row(modules: ModuleSet, kind: ModuleKind) -> dict[str, Any]:
    return next(row for row in modules.roster() if row["kind"] == kind.value)


def test_every_holder_of_a_board_run_binds_board_0_with_origin_run_with_or_without_the_capability() -> None:
    ids = StoreIds()
    seat = _run_board(ids)
    planner = ModuleSet.open(
        _holder(seat=seat, capabilities=frozenset({"project-management"})), ids, MODULE_CLASSES
    )
    plain = ModuleSet.open(_holder(None, seat), ids, MODULE_CLASSES)
    for modules in (planner, plain):
        assert _row(modules, B) == {
            "kind": "board",
            "moduleId": "board-0",
            "enabled": True,
            "origin": "run",
            "writable": True,
        }
    assert _board(plain).handle.board is _board(planner).handle.board
    assert ids.mint("board") == "board-1"  # binding the run's board minted nothing


def test_a_task_list_is_a_fresh_store_per_holder_under_its_own_id() -> None:
    ids = StoreIds()
    first, second = (ModuleSet.open(_holder(), ids, MODULE_CLASSES) for _ in range(2))
    assert [_row(first, T)["moduleId"], _row(second, T)["moduleId"]] == ["tasks-0", "tasks-1"]
    assert _row(first, T)["origin"] == "created"


def test_a_run_without_a_board_holds_none_and_a_profile_without_tasks_holds_no_list() -> None:
    modules = ModuleSet.open(_holder(None), StoreIds(), MODULE_CLASSES)
    assert modules.held() == {H}
    assert _row(modules, B) == {"kind": "board", "moduleId": "", "enabled": False, "writable": False}


def test_the_fork_worked_example_copies_the_task_list_and_links_the_board() -> None:
    ids = StoreIds()
    seat = _run_board(ids)
    root = ModuleSet.open(_holder(seat=seat), ids, MODULE_CLASSES)
    _tasks(root).held.write(lambda tasks: tasks.add("t1", "sort the bolt bins"))
    copy, rows = root.fork(ids)
    assert _rows(rows)[:4] == [
        ("history", "copied", "history-0", "history-1"),
        ("memories", "absent", None, None),
        ("tasks", "copied", "tasks-0", "tasks-1"),
        ("board", "linked", "board-0", "board-0"),
    ]
    assert [(r["kind"], r.get("origin")) for r in copy.roster() if r["enabled"]] == [
        ("history", "forked"),
        ("tasks", "forked"),
        ("board", "run"),
    ]
    _tasks(copy).held.write(lambda tasks: tasks.add("t2", "sort the washers"))
    assert [t.id for t in _tasks(root).held.tasks.tasks] == ["t1"]
    assert [t.id for t in _tasks(copy).held.tasks.tasks] == ["t1", "t2"]
    assert _board(copy).handle.board is _board(root).handle.board


def test_a_fork_copy_reports_only_its_own_writes_and_the_original_keeps_what_it_had_not_drained() -> None:
    ids = StoreIds()
    root = ModuleSet.open(_holder(seat=_run_board(ids)), ids, MODULE_CLASSES)
    root.restate()
    _tasks(root).held.write(lambda tasks: tasks.add("t1", "measure"))
    copy, _ = root.fork(ids)
    assert copy.drain() == []
    assert [p.to_wire()["moduleId"] for p in root.drain()] == ["tasks-0"]


def test_ten_tasks_carried_into_max_tasks_5_are_kept_and_the_next_add_is_refused() -> None:
    ids = StoreIds()
    root = ModuleSet.open(_holder(10), ids, MODULE_CLASSES)
    for n in range(10):
        _tasks(root).held.write(lambda tasks, n=n: tasks.add(f"t{n}", f"step {n}"))
    receiving = _holder(5)
    moved = root.transfer(
        receiving, exec_carries(root.held(), receiving_kinds(receiving, MODULE_CLASSES)), ids
    )
    assert _rows(moved.rows)[2] == ("tasks", "carried", "tasks-0", "tasks-0")
    carried = _tasks(moved.modules).held
    assert len(carried.tasks.tasks) == 10 and carried.tasks.max_tasks == 5
    with pytest.raises(Refusal) as refused:
        carried.write(lambda tasks: tasks.add("t10", "one more"))
    assert refused.value.code is ErrorCode.LIMIT_EXCEEDED and "maximum of 5 tasks" in str(refused.value)
    assert _row(moved.modules, T)["origin"] == "transferred"


def test_an_exec_carries_the_board_to_a_profile_without_the_capability_origin_still_run() -> None:
    ids = StoreIds()
    seat = _run_board(ids)
    root = ModuleSet.open(
        _holder(seat=seat, capabilities=frozenset({"project-management"})), ids, MODULE_CLASSES
    )
    receiving = _holder(None, BoardSeat(seat.board, seat.module_id, IssuePolicy(implementers=("impl",))))
    moved = root.transfer(
        receiving, exec_carries(root.held(), receiving_kinds(receiving, MODULE_CLASSES)), ids
    )
    assert _rows(moved.rows)[2:4] == [
        ("tasks", "dropped", "tasks-0", None),
        ("board", "carried", "board-0", "board-0"),
    ]
    assert _row(moved.modules, B)["origin"] == "run"
    assert _board(moved.modules).handle.policy.implementers == ("impl",)


def test_a_successor_keeps_the_issue_its_predecessor_was_given() -> None:
    ids = StoreIds()
    seat = _run_board(ids)
    implementer = ModuleSet.open(
        _holder(None, BoardSeat(seat.board, "board-0", assigned_issue="ABC-1")), ids, MODULE_CLASSES
    )
    moved = implementer.transfer(_holder(None, seat), frozenset({H, B}), ids)
    assert _board(moved.modules).handle.assigned_issue == "ABC-1"


def test_the_task_list_is_pinned_at_the_turn_boundary_and_the_board_puts_nothing_in_the_window() -> None:
    ids = StoreIds()
    modules = ModuleSet.open(_holder(seat=_run_board(ids)), ids, MODULE_CLASSES)
    window = Window(system="s")
    modules.refresh(window)
    assert window.messages == []  # an empty list never pinned, and the board adds nothing
    _tasks(modules).held.write(lambda tasks: tasks.add("a", "measure"))
    _tasks(modules).held.write(lambda tasks: tasks.add("b", "cut", blocked_by=["a"]))
    _board(modules).handle.board.create_issue(NewIssue("count", "bolts", "nuts", "a number", "impl"))
    modules.refresh(window)
    (pinned,) = window.messages
    assert window.pinned(Band.TASKS) == pinned.content
    assert "[ready] `a`: measure" in pinned.content and "[blocked by `a`] `b`: cut" in pinned.content
    modules.refresh(window)
    assert len(window.messages) == 1  # byte-identical: nothing pushed


def test_a_holder_without_the_settings_its_kind_needs_is_ggs_own_defect() -> None:
    with pytest.raises(GgDefect, match="task list"):
        ModuleSet.open(Holder(frozenset({"tasks"})), StoreIds(), MODULE_CLASSES)
    with pytest.raises(GgDefect, match="board"):
        ModuleSet.open(Holder(frozenset(), run_has_board=True), StoreIds(), MODULE_CLASSES)


def test_a_machine_edge_that_names_only_the_window_still_carries_the_run_board() -> None:
    ids = StoreIds()
    seat = _run_board(ids)
    root = ModuleSet.open(_holder(seat=seat), ids, MODULE_CLASSES)
    moved = root.transfer(_holder(seat=seat), frozenset({H}), ids)
    assert _rows(moved.rows)[2:4] == [
        ("tasks", "initialized", "tasks-0", "tasks-1"),
        ("board", "carried", "board-0", "board-0"),
    ]
    assert _board(moved.modules).handle.board is seat.board and _row(moved.modules, B)["origin"] == "run"
