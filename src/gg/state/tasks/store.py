"""The task list (seed 003, "tasks"): one agent's own blocked-by DAG of the work it plans, with ids
it authors itself.

- A task is `{id, title, description?, status, blockedBy}`; in `issues` mode it also carries
  `inScope`, `outOfScope` and `completionCriteria`, which `add` then requires (in `simple` mode a
  task carries none, and giving one is refused). Fields are checked by `gg.state.items`, the
  blocked-by list by `gg.state.dag`.
- `add` refuses a duplicate id (`conflict`) and, at `max_tasks`, any new task (`limit-exceeded`);
  a blocker that does not exist is `not-found`, a cycle `conflict`. `update` needs at least one
  field (`invalid-argument`); `description` `None` (or blank) clears it. `set_blocked_by` replaces
  the list (`()` clears it); `complete` marks a task done; `remove` strips its id from every other
  task's list. An unknown id is `not-found`. A refused mutation changes nothing.
- A task is ready when it is not done and every task it is blocked by is done; an open task that
  is not ready is blocked by the blockers not yet done.
- `reconfigure` re-points `max_tasks` and `mode` (a transfer): what is already held is kept, even
  over the new cap; only the next `add` is held to the new rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeVar

from gg import prompts
from gg.config.modules import TaskMode
from gg.errors import ErrorCode
from gg.state.dag import checked_blockers
from gg.state.items import KEEP, Keep, checked_id, checked_text, checked_title, optional_text
from gg.state.refusal import Refusal, worded
from gg.state.window import Band, Window
from gg.telemetry.events import Payload
from gg.telemetry.module_events import TasksState
from gg.wire import camel

T = TypeVar("T")


class TaskStatus(StrEnum):
    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    DONE = "done"


SCOPE_FIELDS = ("in_scope", "out_of_scope", "completion_criteria")  # as arguments, snake_case


@dataclass(frozen=True)
class TaskScope:
    """An issues-mode task's sections: what it covers, what it does not, and when it is done."""

    in_scope: str
    out_of_scope: str
    completion_criteria: str

    def fields(self) -> dict[str, str]:
        """Each section by its argument's name (`in_scope`)."""
        values = (self.in_scope, self.out_of_scope, self.completion_criteria)
        return dict(zip(SCOPE_FIELDS, values, strict=True))

    def to_wire(self) -> dict[str, str]:
        return {camel(name): value for name, value in self.fields().items()}


@dataclass(frozen=True)
class ScopeEdit:
    """The sections an `add` or an `update` names; None for one it leaves out."""

    in_scope: str | None = None
    out_of_scope: str | None = None
    completion_criteria: str | None = None

    def given(self) -> dict[str, str]:
        """The sections named, by their arguments' names (`in_scope`)."""
        values = (self.in_scope, self.out_of_scope, self.completion_criteria)
        return {name: value for name, value in zip(SCOPE_FIELDS, values, strict=True) if value is not None}


NO_SCOPE = ScopeEdit()


@dataclass(frozen=True)
class Task:
    id: str
    title: str
    description: str | None = None
    status: TaskStatus = TaskStatus.PENDING
    blocked_by: tuple[str, ...] = ()
    scope: TaskScope | None = None

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"id": self.id, "title": self.title}
        if self.description is not None:
            wire["description"] = self.description
        wire |= {"status": self.status.value, "blockedBy": list(self.blocked_by)}
        return wire | ({} if self.scope is None else self.scope.to_wire())


@dataclass(frozen=True)
class TaskPatch:
    """What an `update` changes; a field left at its default is left as it is."""

    title: str | None = None
    description: str | Keep | None = KEEP
    status: TaskStatus | None = None
    scope: ScopeEdit = ScopeEdit()

    def is_empty(self) -> bool:
        unchanged = self.title is None and self.description is KEEP and self.status is None
        return unchanged and not self.scope.given()


@dataclass(frozen=True)
class TaskUsage:
    count: int
    max_tasks: int

    def to_wire(self) -> dict[str, int]:
        return {"count": self.count, "maxTasks": self.max_tasks}


class TaskList:
    """The tasks in the order they were added, bounded by `max_tasks`, shaped by `mode`."""

    def __init__(self, max_tasks: int, mode: TaskMode, tasks: Sequence[Task] = ()) -> None:
        self.max_tasks = max_tasks
        self.mode = mode
        self._tasks: dict[str, Task] = {task.id: task for task in tasks}

    @property
    def tasks(self) -> tuple[Task, ...]:
        return tuple(self._tasks.values())

    def usage(self) -> TaskUsage:
        return TaskUsage(len(self._tasks), self.max_tasks)

    def copy(self) -> TaskList:
        return TaskList(self.max_tasks, self.mode, self.tasks)

    def reconfigure(self, max_tasks: int, mode: TaskMode) -> None:
        self.max_tasks, self.mode = max_tasks, mode

    def add(
        self,
        task_id: str,
        title: str,
        *,
        description: str | None = None,
        blocked_by: Sequence[str] = (),
        scope: ScopeEdit = NO_SCOPE,
    ) -> TaskUsage:
        checked_id(task_id)
        checked_title(title)
        sections = self._new_scope(scope)
        if task_id in self._tasks:
            raise Refusal(ErrorCode.CONFLICT, worded("tasks-taken", id=task_id))
        if len(self._tasks) >= self.max_tasks:
            raise Refusal(ErrorCode.LIMIT_EXCEEDED, worded("tasks-full", cap=self.max_tasks))
        blockers = checked_blockers(task_id, blocked_by, self._graph(), "task")
        text = optional_text(description, "description")
        self._tasks[task_id] = Task(task_id, title, text, blocked_by=blockers, scope=sections)
        return self.usage()

    def update(self, task_id: str, patch: TaskPatch) -> None:
        if patch.is_empty():
            raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("item-update-empty"))
        task = self._get(task_id)
        description = task.description
        if patch.description is not KEEP:
            description = optional_text(patch.description, "description")
        self._tasks[task_id] = replace(
            task,
            title=task.title if patch.title is None else checked_title(patch.title),
            description=description,
            status=task.status if patch.status is None else patch.status,
            scope=self._edited_scope(task.scope, patch.scope),
        )

    def set_blocked_by(self, task_id: str, blocked_by: Sequence[str]) -> None:
        task = self._get(task_id)
        blockers = checked_blockers(task_id, blocked_by, self._graph(), "task")
        self._tasks[task_id] = replace(task, blocked_by=blockers)

    def complete(self, task_id: str) -> None:
        self._tasks[task_id] = replace(self._get(task_id), status=TaskStatus.DONE)

    def remove(self, task_id: str) -> TaskUsage:
        self._get(task_id)
        del self._tasks[task_id]
        for other in self.tasks:
            if task_id in other.blocked_by:
                kept = tuple(blocker for blocker in other.blocked_by if blocker != task_id)
                self._tasks[other.id] = replace(other, blocked_by=kept)
        return self.usage()

    def holding(self, task: Task) -> tuple[str, ...]:
        """The blockers of `task` not yet done, in its list's order."""
        done = TaskStatus.DONE
        return tuple(b for b in task.blocked_by if b in self._tasks and self._tasks[b].status is not done)

    def is_ready(self, task: Task) -> bool:
        return task.status is not TaskStatus.DONE and not self.holding(task)

    def _get(self, task_id: str) -> Task:
        task = self._tasks.get(task_id)
        if task is None:
            shown = task_id if len(task_id) <= 100 else task_id[:100] + "…"
            raise Refusal(ErrorCode.NOT_FOUND, worded("item-missing", noun="task", id=shown))
        return task

    def _graph(self) -> dict[str, tuple[str, ...]]:
        return {task.id: task.blocked_by for task in self._tasks.values()}

    def _new_scope(self, edit: ScopeEdit) -> TaskScope | None:
        given = edit.given()
        if self.mode is TaskMode.SIMPLE:
            self._refuse_sections(given)
            return None
        _require_sections(given)
        return TaskScope(*(checked_text(given[name], name) for name in SCOPE_FIELDS))

    def _edited_scope(self, scope: TaskScope | None, edit: ScopeEdit) -> TaskScope | None:
        given = edit.given()
        if self.mode is TaskMode.SIMPLE:
            self._refuse_sections(given)
            return scope
        if not given:
            return scope
        current = scope.fields() if scope is not None else {}
        values = {**current, **{name: checked_text(value, name) for name, value in given.items()}}
        _require_sections(values)
        return TaskScope(*(values[name] for name in SCOPE_FIELDS))

    @staticmethod
    def _refuse_sections(given: dict[str, str]) -> None:
        if given:
            simple = worded("tasks-simple-mode", {"field": next(iter(given))})
            raise Refusal(ErrorCode.INVALID_ARGUMENT, simple)


def _require_sections(given: dict[str, str]) -> None:
    missing = [name for name in SCOPE_FIELDS if name not in given]
    if missing:
        raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("tasks-issues-mode", {"field": missing[0]}))


class TasksModule:
    """The `tasks` module: one holder's task list, with its four answers for the module framework.

    - open: `fresh(max_tasks, mode)`, an empty list under the profile's settings (the framework
      mints its store id, `tasks-<n>`).
    - prompt: `prompt_block(pinned)` is the list as its own message (template `tasks`); the
      holder's loop calls `refresh(window)` at each turn boundary, which pins it in the window's
      `tasks` band (a block identical to the one pinned pins nothing). A list that never held a
      task is not pinned; once pinned, an emptied list says it is empty.
    - report: `restate(id)` is its `tasks_state` snapshot (at open, the empty list); `drain(id)` the
      snapshot after each successful mutation since the last drain, one each, in order.
    - fork: `copy()` is a deep copy with nothing left to report; a task list never links, so a
      share is a copy too.
    - transfer: `adopt(max_tasks, mode)` always carries the list, re-pointing both settings to the
      receiving profile's (the mode is no barrier: only new tasks follow it); a list over its new
      cap is kept, and the next `add` is refused. It is never incompatible; a receiving profile
      without `tasks` drops it (the framework's decision).
    Every write goes through `write`, which records the snapshot only when the mutation succeeds.
    """

    def __init__(self, tasks: TaskList) -> None:
        self.tasks = tasks
        self._unreported: list[list[dict[str, Any]]] = []

    @classmethod
    def fresh(cls, max_tasks: int, mode: TaskMode) -> TasksModule:
        return cls(TaskList(max_tasks, mode))

    def copy(self) -> TasksModule:
        return TasksModule(self.tasks.copy())

    def adopt(self, max_tasks: int, mode: TaskMode) -> TasksModule:
        self.tasks.reconfigure(max_tasks, mode)
        return self

    def write(self, mutation: Callable[[TaskList], T]) -> T:
        """Apply `mutation` to the list; a refused one (`Refusal`) records nothing."""
        result = mutation(self.tasks)
        self._unreported.append(self._entries())
        return result

    def restate(self, module_id: str) -> list[Payload]:
        return [TasksState(module_id=module_id, tasks=self._entries())]

    def drain(self, module_id: str) -> list[Payload]:
        drained, self._unreported = self._unreported, []
        return [TasksState(module_id=module_id, tasks=tasks) for tasks in drained]

    def prompt_block(self, pinned: bool) -> str | None:
        """The list's message, or None while nothing needs pinning (no task, none pinned yet)."""
        listed = self.tasks.tasks
        if not listed and not pinned:
            return None
        return prompts.render("tasks", tasks=[self._shown(task) for task in listed])

    def refresh(self, window: Window) -> bool:
        """Rebuild the list's block in `window` (a turn boundary); True when that pushed a message."""
        return window.pin(Band.TASKS, self.prompt_block(pinned=window.pinned(Band.TASKS) is not None))

    def _entries(self) -> list[dict[str, Any]]:
        return [task.to_wire() for task in self.tasks.tasks]

    def _shown(self, task: Task) -> dict[str, Any]:
        holding = ", ".join(f"`{blocker}`" for blocker in self.tasks.holding(task))
        return {
            "id": task.id,
            "headline": task.title,
            "description": task.description,
            "done": task.status is TaskStatus.DONE,
            "in_progress": task.status is TaskStatus.IN_PROGRESS,
            "holding": holding,
            "scope": task.scope,
        }
