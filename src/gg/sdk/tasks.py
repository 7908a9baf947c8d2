"""The `tasks` family (capability `tasks`): the agent's own task list, whose rules are
`gg.state.tasks`'.

- `addTask({id, title, description?, blockedBy?, inScope?, outOfScope?, completionCriteria?})`
  → `TaskUsage {count, maxTasks}`; the three sections are for a list in `issues` mode, which
  requires them;
- `updateTask(id, {title?, description?, status?, inScope?, outOfScope?, completionCriteria?})`;
  `description: null` (or an empty string) clears it; `status` is `pending`, `in_progress` or
  `done`;
- `setBlockedBy(id, blockedBy)` replaces the list (`[]` clears it); `completeTask(id)`;
  `removeTask(id)` → `TaskUsage`.
A refusal crosses as an `ApiError` under the call's key; each successful call is one
`tasks_state`, drained from the module by its holder's loop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.arguments import required
from gg.sdk.registry import Capability, ErrorDoc, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.items import KEEP
from gg.state.refusal import Refusal
from gg.state.tasks import ScopeEdit, TaskList, TaskPatch, TaskStatus

CAPABILITY = "tasks"
T = TypeVar("T")


def _write(scope: ProgramScope, operation: str, mutation: Callable[[TaskList], T]) -> T:
    if scope.tasks is None:  # the gate admits only agents whose profile enables tasks
        raise GgDefect(FatalFault.HOST_FAULT, f"tasks.{operation} reached an agent without a task list")
    try:
        return scope.tasks.write(mutation)
    except Refusal as refusal:
        raise refusal.at(operation, scope.spelling(operation)) from None


def _scope_edit(args: Mapping[str, Any]) -> ScopeEdit:
    return ScopeEdit(args.get("inScope"), args.get("outOfScope"), args.get("completionCriteria"))


def _add_task(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, int]:
    task_id, title = required(scope, args, "id", "add_task"), required(scope, args, "title", "add_task")
    usage = _write(
        scope,
        "add_task",
        lambda tasks: tasks.add(
            task_id,
            title,
            description=args.get("description"),
            blocked_by=args.get("blockedBy", []),
            scope=_scope_edit(args),
        ),
    )
    return usage.to_wire()


def _update_task(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    status = args.get("status")
    if status is not None and status not in {member.value for member in TaskStatus}:
        choices = ", ".join(member.value for member in TaskStatus)
        raise OperationError("update_task", ErrorCode.INVALID_ARGUMENT, f"`status` must be one of {choices}")
    patch = TaskPatch(
        title=args.get("title"),
        description=args.get("description", KEEP),
        status=None if status is None else TaskStatus(status),
        scope=_scope_edit(args),
    )
    _write(scope, "update_task", lambda tasks: tasks.update(args["id"], patch))


def _set_blocked_by(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    _write(scope, "set_blocked_by", lambda tasks: tasks.set_blocked_by(args["id"], args["blockedBy"]))


def _complete_task(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    _write(scope, "complete_task", lambda tasks: tasks.complete(args["id"]))


def _remove_task(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, int]:
    return _write(scope, "remove_task", lambda tasks: tasks.remove(args["id"])).to_wire()


_GATE = Capability(CAPABILITY)
_ID = Param("id", ParamType.STRING, doc="the task's id")
_SECTIONS = (
    Param("in_scope", ParamType.STRING, required=False, doc="what the task covers (issues mode)"),
    Param("out_of_scope", ParamType.STRING, required=False, doc="what it leaves alone (issues mode)"),
    Param("completion_criteria", ParamType.STRING, required=False, doc="when it is done (issues mode)"),
)
_NOT_FOUND = ErrorDoc(ErrorCode.NOT_FOUND, "no task has that id")

TASKS_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="tasks",
        key="add_task",
        params=(
            Param("id", ParamType.STRING, required=False, doc="the id you give the task (required)"),
            Param("title", ParamType.STRING, required=False, doc="one line naming the work (required)"),
            Param("description", ParamType.STRING, required=False, doc="more about it"),
            Param(
                "blocked_by", ParamType.STRING_LIST, required=False, doc="the tasks that must be done first"
            ),
            *_SECTIONS,
        ),
        returns="TaskUsage",
        summary="Add a task to your task list.",
        gate=_GATE,
        handler=_add_task,
        errors=(
            ErrorDoc(ErrorCode.CONFLICT, "a task already has that id, or a blocker would close a cycle"),
            ErrorDoc(ErrorCode.NOT_FOUND, "a blocker names no task"),
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "the list already holds its maximum of tasks"),
            ErrorDoc(
                ErrorCode.INVALID_ARGUMENT, "a field is missing or blank, or the list's mode refuses it"
            ),
        ),
    ),
    Operation(
        family="tasks",
        key="update_task",
        params=(
            _ID,
            Param("title", ParamType.STRING, required=False, doc="its new title"),
            Param(
                "description",
                ParamType.CLEARABLE_STRING,
                required=False,
                doc="its new description; null clears it",
            ),
            Param("status", ParamType.STRING, required=False, doc="pending, in_progress or done"),
            *_SECTIONS,
        ),
        returns="void",
        summary="Change a task's title, description, status or sections.",
        gate=_GATE,
        handler=_update_task,
        errors=(_NOT_FOUND, ErrorDoc(ErrorCode.INVALID_ARGUMENT, "nothing to change, or a field is blank")),
    ),
    Operation(
        family="tasks",
        key="set_blocked_by",
        params=(
            _ID,
            Param("blocked_by", ParamType.STRING_LIST, doc="every task it now waits on; [] for none"),
        ),
        returns="void",
        summary="Replace the tasks a task is blocked by.",
        gate=_GATE,
        handler=_set_blocked_by,
        errors=(
            ErrorDoc(ErrorCode.NOT_FOUND, "the task, or a blocker, is no task of the list"),
            ErrorDoc(ErrorCode.CONFLICT, "the task would be blocked by itself, or a cycle would close"),
        ),
    ),
    Operation(
        family="tasks",
        key="complete_task",
        params=(_ID,),
        returns="void",
        summary="Mark a task done.",
        gate=_GATE,
        handler=_complete_task,
        errors=(_NOT_FOUND,),
    ),
    Operation(
        family="tasks",
        key="remove_task",
        params=(_ID,),
        returns="TaskUsage",
        summary="Remove a task; no other task is blocked by it any more.",
        gate=_GATE,
        handler=_remove_task,
        errors=(_NOT_FOUND,),
    ),
)
