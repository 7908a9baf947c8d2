"""The task list (seed 003, "tasks"): one agent's own blocked-by DAG of the work it plans, with
ids it authors itself. A task list has one holder: it is copied, never shared.

The parts: `store` (the `TaskList`, its tasks, the two modes, and `TasksModule`: the holder's
list with its snapshots and its pinned block), `module` (`TaskListModule`: the framework's four
answers over it; a profile's `TaskListSettings` is config's).
"""

from gg.state.tasks.module import TaskListModule
from gg.state.tasks.store import ScopeEdit, TaskList, TaskPatch, TasksModule, TaskStatus

__all__ = [
    "ScopeEdit",
    "TaskList",
    "TaskListModule",
    "TaskPatch",
    "TaskStatus",
    "TasksModule",
]
