"""The task list as a module of a holder's set (seed 003, "tasks"): the framework's four answers
over one `gg.state.tasks.TasksModule`.

- open: a holder of a profile enabling `tasks` gets an empty list under its profile's settings
  (`Holder.settings[tasks]`, a `TaskListSettings`) and a store id `tasks-<n>`.
- prompt: at each turn boundary the list is rebuilt as its own pinned message (the window's
  `tasks` band), each open task marked ready or blocked by the ids still holding it; a pin
  crosses a compaction verbatim, and a block identical to the one pinned pins nothing.
- report: `tasks_state` as it arrives with a holder, and once per successful write.
- fork: an independent copy (its contents, nothing left to report); a task list never links.
- transfer: always carried, `maxTasks` and `mode` re-pointed to the receiving profile's (a task
  list has one holder, so it is always its sole holder); a list over its new cap keeps every task,
  and the next add is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from gg.config.kinds import ModuleKind
from gg.config.modules import TaskListSettings
from gg.errors import FatalFault, GgDefect
from gg.state.module import Holder, Module, Moment, Spelling
from gg.state.tasks.store import TasksModule
from gg.state.window import Band

if TYPE_CHECKING:
    from gg.state.window import Window
    from gg.telemetry.events import Payload


@dataclass
class TaskListModule(Module):
    kind: ClassVar[ModuleKind] = ModuleKind.TASKS
    band: ClassVar[Band | None] = Band.TASKS
    held: TasksModule

    @classmethod
    def fresh(cls, holder: Holder) -> TaskListModule:
        settings = _settings(holder)
        return cls(TasksModule.fresh(settings.max_tasks, settings.mode))

    def copy(self) -> TaskListModule:
        return TaskListModule(self.held.copy())

    def share(self) -> TaskListModule:
        return self.copy()

    def adopt(self, holder: Holder) -> TaskListModule:
        settings = _settings(holder)
        return TaskListModule(self.held.adopt(settings.max_tasks, settings.mode))

    def restate(self, module_id: str) -> list[Payload]:
        return self.held.restate(module_id)

    def drain(self, module_id: str) -> list[Payload]:
        return self.held.drain(module_id)

    def refresh(self, window: Window) -> None:
        self.held.refresh(window)

    def block(self, moment: Moment, spell: Spelling) -> str | None:
        return self.held.prompt_block(pinned=False)


def _settings(holder: Holder) -> TaskListSettings:
    settings = holder.settings.get(ModuleKind.TASKS)
    if not isinstance(settings, TaskListSettings):
        raise GgDefect(FatalFault.HOST_FAULT, "a task list was opened for a profile without its settings")
    return settings
