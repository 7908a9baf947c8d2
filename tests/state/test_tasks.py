"""The task list (seed 003, "tasks"): a blocked-by DAG with model-authored ids, its pinned block, its
telemetry, and how it is copied and carried (anchor-state §1.3, §2, §3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gg.config.modules import TaskMode
from gg.errors import ErrorCode
from gg.loop.compaction import apply_compaction
from gg.providers.base import Message, ToolCall
from gg.sdk.scope import Compaction
from gg.state.refusal import Refusal
from gg.state.tasks import ScopeEdit, TaskList, TaskPatch, TasksModule, TaskStatus
from gg.state.window import Band, Window
from gg.state.workspace import Workspace
from gg.telemetry.module_events import TasksState

SCOPE = ScopeEdit("the frame", "the roof", "the frame stands")


def _outcome(tasks: TaskList, change: Callable[[TaskList], object]) -> str:
    try:
        change(tasks)
    except Refusal as refusal:
        return refusal.code.value
    return "ok"


def _entries(tasks: TaskList) -> list[dict[str, Any]]:
    return [task.to_wire() for task in tasks.tasks]


def test_the_dag_refuses_cycles_self_blocks_ghosts_and_duplicates_and_refused_calls_change_nothing() -> None:
    tasks = TaskList(10, TaskMode.SIMPLE)
    steps: list[tuple[str, Callable[[TaskList], object]]] = [
        ("add-a", lambda t: t.add("a", "measure")),
        ("add-b", lambda t: t.add("b", "cut", blocked_by=["a"])),
        ("add-c", lambda t: t.add("c", "sand")),
        ("c-after-b", lambda t: t.set_blocked_by("c", ["b"])),
        ("close-the-loop", lambda t: t.set_blocked_by("a", ["c"])),
        ("self", lambda t: t.set_blocked_by("a", ["a"])),
        ("two-cycle", lambda t: t.set_blocked_by("b", ["c"])),
        ("ghost-blocker", lambda t: t.set_blocked_by("a", ["ghost"])),
        ("duplicate-id", lambda t: t.add("a", "again")),
        ("add-on-a-ghost", lambda t: t.add("d", "oil", blocked_by=["ghost"])),
        ("update-missing", lambda t: t.update("zz", TaskPatch(title="x"))),
        ("update-nothing", lambda t: t.update("a", TaskPatch())),
        ("blank-id", lambda t: t.add("", "x")),
    ]
    seen = [f"{label} {_outcome(tasks, step)}" for label, step in steps]
    assert seen == [
        "add-a ok",
        "add-b ok",
        "add-c ok",
        "c-after-b ok",
        "close-the-loop conflict",
        "self conflict",
        "two-cycle conflict",
        "ghost-blocker not-found",
        "duplicate-id conflict",
        "add-on-a-ghost not-found",
        "update-missing not-found",
        "update-nothing invalid-argument",
        "blank-id invalid-argument",
    ]
    assert _entries(tasks) == [
        {"id": "a", "title": "measure", "status": "pending", "blockedBy": []},
        {"id": "b", "title": "cut", "status": "pending", "blockedBy": ["a"]},
        {"id": "c", "title": "sand", "status": "pending", "blockedBy": ["b"]},
    ]


def test_a_cycle_is_refused_naming_the_blocker_that_already_waits() -> None:
    tasks = TaskList(10, TaskMode.SIMPLE)
    tasks.add("a", "one")
    tasks.add("b", "two", blocked_by=["a"])
    with pytest.raises(Refusal) as refused:
        tasks.set_blocked_by("a", ["b"])
    assert refused.value.code is ErrorCode.CONFLICT
    assert "`b` already waits on `a`" in str(refused.value)


def test_a_blocker_list_is_replaced_whole_read_once_per_id_and_cleared_by_an_empty_list() -> None:
    tasks = TaskList(10, TaskMode.SIMPLE)
    for task_id in "abc":
        tasks.add(task_id, task_id)
    tasks.set_blocked_by("c", ["a", "b", "a"])
    assert tasks.tasks[2].blocked_by == ("a", "b")
    tasks.set_blocked_by("c", ["b"])
    assert tasks.tasks[2].blocked_by == ("b",)
    tasks.set_blocked_by("c", [])
    assert tasks.tasks[2].blocked_by == ()


def test_removing_a_task_strips_its_id_from_every_other_blocked_by_list() -> None:
    tasks = TaskList(10, TaskMode.SIMPLE)
    tasks.add("a", "one")
    tasks.add("b", "two")
    tasks.add("c", "three", blocked_by=["a", "b"])
    usage = tasks.remove("a")
    assert usage.to_wire() == {"count": 2, "maxTasks": 10}
    assert [(t.id, t.blocked_by) for t in tasks.tasks] == [("b", ()), ("c", ("b",))]
    assert _outcome(tasks, lambda t: t.remove("a")) == "not-found"


def test_an_update_changes_what_it_names_and_a_null_or_blank_description_clears_it() -> None:
    tasks = TaskList(10, TaskMode.SIMPLE)
    tasks.add("a", "measure", description="twice")
    tasks.update("a", TaskPatch(status=TaskStatus.IN_PROGRESS))
    assert tasks.tasks[0].description == "twice" and tasks.tasks[0].status is TaskStatus.IN_PROGRESS
    tasks.update("a", TaskPatch(title="measure again", description=None))
    assert tasks.tasks[0].title == "measure again" and tasks.tasks[0].description is None
    tasks.update("a", TaskPatch(description="once"))
    tasks.update("a", TaskPatch(description="  "))
    assert tasks.tasks[0].description is None
    tasks.complete("a")
    assert tasks.tasks[0].status is TaskStatus.DONE


def test_fields_that_are_blank_too_long_or_break_a_line_are_refused() -> None:
    tasks = TaskList(10, TaskMode.SIMPLE)
    assert _outcome(tasks, lambda t: t.add("a b", "x")) == "invalid-argument"
    assert _outcome(tasks, lambda t: t.add("a", "two\nlines")) == "invalid-argument"
    assert _outcome(tasks, lambda t: t.add("a", " ")) == "invalid-argument"
    assert _outcome(tasks, lambda t: t.add("x" * 101, "long id")) == "limit-exceeded"
    assert _outcome(tasks, lambda t: t.add("a", "t", description="d" * 8193)) == "limit-exceeded"
    assert _outcome(tasks, lambda t: t.add("a", "t", description="d" * 8192)) == "ok"


def test_issues_mode_requires_the_three_sections_on_add_and_simple_mode_refuses_them() -> None:
    issues = TaskList(10, TaskMode.ISSUES)
    assert _outcome(issues, lambda t: t.add("a", "frame")) == "invalid-argument"
    assert _outcome(issues, lambda t: t.add("a", "frame", scope=ScopeEdit("x", "y"))) == "invalid-argument"
    issues.add("a", "frame", scope=SCOPE)
    assert issues.tasks[0].to_wire() == {
        "id": "a",
        "title": "frame",
        "status": "pending",
        "blockedBy": [],
        "inScope": "the frame",
        "outOfScope": "the roof",
        "completionCriteria": "the frame stands",
    }
    issues.update("a", TaskPatch(scope=ScopeEdit(out_of_scope="the walls")))
    assert issues.tasks[0].scope is not None and issues.tasks[0].scope.out_of_scope == "the walls"
    simple = TaskList(10, TaskMode.SIMPLE)
    assert _outcome(simple, lambda t: t.add("a", "frame", scope=SCOPE)) == "invalid-argument"
    assert simple.tasks == ()


def test_a_full_list_refuses_the_next_add_and_a_duplicate_is_a_conflict_first() -> None:
    tasks = TaskList(2, TaskMode.SIMPLE)
    tasks.add("a", "one")
    assert tasks.add("b", "two").to_wire() == {"count": 2, "maxTasks": 2}
    assert _outcome(tasks, lambda t: t.add("c", "three")) == "limit-exceeded"
    assert _outcome(tasks, lambda t: t.add("a", "again")) == "conflict"
    with pytest.raises(Refusal, match="at the maximum of 2 tasks"):
        tasks.add("c", "three")


def test_ten_tasks_carried_into_a_cap_of_five_are_kept_and_the_next_add_is_refused() -> None:
    module = TasksModule.fresh(10, TaskMode.SIMPLE)
    for n in range(1, 11):
        module.write(lambda t, n=n: t.add(f"t{n}", f"step {n}"))
    carried = module.adopt(5, TaskMode.SIMPLE)
    assert carried.tasks.usage().to_wire() == {"count": 10, "maxTasks": 5}
    with pytest.raises(Refusal, match="at the maximum of 5 tasks") as refused:
        carried.write(lambda t: t.add("t11", "step 11"))
    assert refused.value.code is ErrorCode.LIMIT_EXCEEDED
    for n in range(1, 6):
        carried.write(lambda t, n=n: t.remove(f"t{n}"))
    assert _outcome(carried.tasks, lambda t: t.add("t11", "step 11")) == "limit-exceeded"
    carried.write(lambda t: t.remove("t6"))
    assert carried.write(lambda t: t.add("t11", "step 11")).to_wire() == {"count": 5, "maxTasks": 5}


def test_a_carried_list_takes_the_receivers_mode_and_only_new_tasks_follow_it() -> None:
    module = TasksModule.fresh(10, TaskMode.SIMPLE)
    module.write(lambda t: t.add("a", "plain"))
    carried = module.adopt(10, TaskMode.ISSUES)
    assert carried.tasks.mode is TaskMode.ISSUES and carried.tasks.tasks[0].scope is None
    assert _outcome(carried.tasks, lambda t: t.add("b", "bare")) == "invalid-argument"
    carried.write(lambda t: t.add("b", "scoped", scope=SCOPE))
    carried.write(lambda t: t.complete("a"))
    assert [task.status for task in carried.tasks.tasks] == [TaskStatus.DONE, TaskStatus.PENDING]


def test_the_pinned_block_marks_each_open_task_ready_or_blocked_by_the_tasks_still_holding_it() -> None:
    module = TasksModule.fresh(10, TaskMode.SIMPLE)
    module.write(lambda t: t.add("scaffold", "raise the frame"))
    module.write(lambda t: t.add("walls", "close the walls"))
    module.write(lambda t: t.add("movement", "hang the door", blocked_by=["scaffold", "walls"]))
    module.write(
        lambda t: t.update("walls", TaskPatch(status=TaskStatus.IN_PROGRESS, description="two\ncoats"))
    )
    assert module.prompt_block(pinned=False) == (
        "Tasks\n----\nYour task list, in the order the tasks were added:\n"
        "- [ready] `scaffold`: raise the frame\n"
        "- [in progress, ready] `walls`: close the walls\n  two\n  coats\n"
        "- [blocked by `scaffold`, `walls`] `movement`: hang the door"
    )
    module.write(lambda t: t.complete("scaffold"))
    block = module.prompt_block(pinned=True)
    assert block is not None
    assert "- [done] `scaffold`: raise the frame" in block
    assert "- [blocked by `walls`] `movement`: hang the door" in block


def test_an_issues_mode_block_shows_each_tasks_sections() -> None:
    module = TasksModule.fresh(10, TaskMode.ISSUES)
    module.write(lambda t: t.add("frame", "raise it", scope=SCOPE))
    assert module.prompt_block(pinned=False) == (
        "Tasks\n----\nYour task list, in the order the tasks were added:\n"
        "- [ready] `frame`: raise it\n"
        "  In scope: the frame\n  Out of scope: the roof\n  Done when: the frame stands"
    )


def test_a_list_that_never_held_a_task_pins_nothing_and_a_pinned_list_emptied_says_so() -> None:
    module = TasksModule.fresh(10, TaskMode.SIMPLE)
    assert module.prompt_block(pinned=False) is None
    module.write(lambda t: t.add("a", "one"))
    module.write(lambda t: t.remove("a"))
    assert module.prompt_block(pinned=False) is None
    assert module.prompt_block(pinned=True) == "Tasks\n----\nYour task list is empty."


def test_it_opens_with_an_empty_snapshot_and_reports_one_after_each_successful_mutation_only() -> None:
    module = TasksModule.fresh(3, TaskMode.SIMPLE)
    assert module.restate("tasks-0") == [TasksState(module_id="tasks-0", tasks=[])]
    assert module.drain("tasks-0") == []
    module.write(lambda t: t.add("a", "one"))
    with pytest.raises(Refusal):
        module.write(lambda t: t.add("a", "again"))
    module.write(lambda t: t.complete("a"))
    drained = module.drain("tasks-7")
    assert [event.to_wire() for event in drained] == [
        {"moduleId": "tasks-7", "tasks": [{"id": "a", "title": "one", "status": "pending", "blockedBy": []}]},
        {"moduleId": "tasks-7", "tasks": [{"id": "a", "title": "one", "status": "done", "blockedBy": []}]},
    ]
    assert module.drain("tasks-7") == []


def test_a_fork_is_a_deep_copy_that_diverges_and_takes_no_undrained_snapshot() -> None:
    original = TasksModule.fresh(10, TaskMode.SIMPLE)
    original.write(lambda t: t.add("a", "one"))
    copy = original.copy()
    copy.write(lambda t: t.complete("a"))
    original.write(lambda t: t.add("b", "two"))
    assert [t.status for t in original.tasks.tasks] == [TaskStatus.PENDING, TaskStatus.PENDING]
    assert [t.id for t in copy.tasks.tasks] == ["a"] and copy.tasks.tasks[0].status is TaskStatus.DONE
    assert len(copy.drain("tasks-1")) == 1  # its own write only
    assert len(original.drain("tasks-0")) == 2


def _reply(window: Window, turn: int) -> None:
    window.begin_turn(turn)
    call = ToolCall(f"c{turn}", "submit_program", {"program": "..."})
    window.push(Message("assistant", "", tool_calls=(call,)))
    window.push(Message("tool", "ok", tool_call_id=f"c{turn}"))


def _sent(window: Window) -> str:
    return "\n".join(message.content for message in window.messages)


def test_the_list_is_its_own_message_rebuilt_at_each_turn_boundary_and_carried_across_a_compaction(
    tmp_path: Path,
) -> None:
    """Fidelity case 090's window, turn by turn; the loop's own compaction applies."""
    window = Window(system="s")
    window.brief(Message("user", "Task\n----\nbuild the shed"))
    module = TasksModule.fresh(10, TaskMode.SIMPLE)
    assert module.refresh(window) is False  # an empty list, never pinned: nothing
    _reply(window, 1)
    module.write(lambda t: t.add("scaffold", "-".join(["raise", "the", "frame"])))
    module.write(lambda t: t.add("movement", "-".join(["hang", "the", "door"]), blocked_by=["scaffold"]))
    assert module.refresh(window) is True
    request_2 = _sent(window)
    for fact in ("raise-the-frame", "hang-the-door", "`scaffold`", "`movement`", "ready", "blocked by"):
        assert fact in request_2
    assert module.refresh(window) is False  # byte-identical: the window is left as it is
    _reply(window, 2)
    module.write(lambda t: t.complete("scaffold"))
    assert module.refresh(window) is True
    assert window.pinned(Band.TASKS) is not None and "[done] `scaffold`" in window.pinned(Band.TASKS)
    _reply(window, 3)
    apply_compaction(window, Compaction("the frame is up; the door is next"), Workspace(tmp_path))
    module.refresh(window)
    request_4 = _sent(window)
    assert request_4.count("hang-the-door") == 1
    assert "[ready] `movement`: hang-the-door" in request_4
    [*_, last] = module.drain("tasks-0")
    assert last.to_wire()["tasks"] == [
        {"id": "scaffold", "title": "raise-the-frame", "status": "done", "blockedBy": []},
        {"id": "movement", "title": "hang-the-door", "status": "pending", "blockedBy": ["scaffold"]},
    ]
