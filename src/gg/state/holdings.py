"""What one agent instance holds, and how it is copied and handed on (seeds 000 and 003).

The parts: its modules (`ModuleSet`: the window with its views as `history`, its memories holder
as `memories`, its task list as `tasks`, its handle on the run's board as `board`, the skills read
set beside its profile's catalogue as `skills`, its thread archive as `archive`), the program
library (None for an agent that keeps none; not a module) and the surface (its documentation and
the code modules loaded for it). A fork and a succession treat each part by its own rule:
- modules: a fork copies each kind under a new id, or links it (`ModuleSet.fork`); a successor
  carries the kinds its plan names, and the rest are dropped or started fresh
  (`ModuleSet.transfer`);
- library: a fork clones its entries and issued ids; a successor takes them over, truncated to
  its own `keep` (below); `library_row` says which, for `agent_transition`;
- surface: a fork gets its grant again, a successor its own grant, both with nothing loaded.
A successor that keeps no library keeps nothing; one whose predecessor kept none starts its own.
Loaded code is never carried: a new instance starts with nothing loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, Self, TypeVar

from gg.config.kinds import ModuleKind
from gg.errors import FatalFault, GgDefect
from gg.state.archive import ArchiveModule
from gg.state.board import BoardModule
from gg.state.dispositions import LibraryRow, Row, library_row
from gg.state.library import Minter, ProgramLibrary
from gg.state.memories.holder import MemoryHolder
from gg.state.memories.module import MemoriesModule
from gg.state.module import Holder, Instance, ModuleClasses
from gg.state.modules import ModuleSet, Transfer, receiving_kinds
from gg.state.skills import SkillReads, SkillsModule
from gg.state.storeids import StoreIds
from gg.state.tasks import TaskListModule
from gg.state.window import HistoryModule, ViewSet, Window

if TYPE_CHECKING:
    from gg.config.model import LibrarySettings
    from gg.state.board import BoardHandle
    from gg.state.tasks import TasksModule

MODULE_CLASSES: ModuleClasses = {
    ModuleKind.HISTORY: HistoryModule,
    ModuleKind.MEMORIES: MemoriesModule,
    ModuleKind.TASKS: TaskListModule,
    ModuleKind.BOARD: BoardModule,
    ModuleKind.SKILLS: SkillsModule,
    ModuleKind.ARCHIVE: ArchiveModule,
}
"""The kinds gg holds so far; a kind absent here is absent from every set."""


def kinds_held_by(holder: Holder) -> frozenset[ModuleKind]:
    """The kinds an agent of `holder`'s profile holds."""
    return receiving_kinds(holder, MODULE_CLASSES)


class Renewable(Protocol):
    """An agent's surface as its holdings see it (`gg.sdk.surface.Surface`): `fresh()` is what a
    copy of the agent starts with."""

    def fresh(self) -> Self: ...


HeldSurface = TypeVar("HeldSurface", bound=Renewable)


@dataclass
class Holdings(Generic[HeldSurface]):
    modules: ModuleSet
    surface: HeldSurface
    library: ProgramLibrary | None = None
    _spare_reads: SkillReads = field(default_factory=SkillReads)  # the read set of a holder without skills

    @classmethod
    def open(
        cls,
        holder: Holder,
        surface: HeldSurface,
        library: ProgramLibrary | None,
        ids: StoreIds,
        instance: Instance | None = None,
    ) -> Holdings[HeldSurface]:
        """What a new agent (`instance`) holds before its first turn: the store every kind it holds
        binds."""
        return cls(ModuleSet.open(holder, ids, MODULE_CLASSES, instance), surface, library)

    @property
    def history(self) -> HistoryModule:
        module = self.modules.get(ModuleKind.HISTORY)
        if not isinstance(module, HistoryModule):
            raise GgDefect(FatalFault.HOST_FAULT, "an agent holds no window")
        return module

    @property
    def window(self) -> Window:
        return self.history.window

    @property
    def views(self) -> ViewSet:
        return self.history.views

    @property
    def archive(self) -> ArchiveModule | None:
        """Its thread archive, when its profile enables `agent-managed-context`."""
        module = self.modules.get(ModuleKind.ARCHIVE)
        return module if isinstance(module, ArchiveModule) else None

    @property
    def memories(self) -> MemoryHolder | None:
        """Its memories holder, when its profile enables memories."""
        module = self.modules.get(ModuleKind.MEMORIES)
        return module.holder if isinstance(module, MemoriesModule) else None

    @property
    def skills_read(self) -> SkillReads:
        """The skills this window has read; a holder without skills has an empty set of its own."""
        module = self.modules.get(ModuleKind.SKILLS)
        return module.reads if isinstance(module, SkillsModule) else self._spare_reads

    @property
    def tasks(self) -> TasksModule | None:
        """Its task list, when its profile enables `tasks`."""
        module = self.modules.typed(ModuleKind.TASKS, TaskListModule)
        return None if module is None else module.held

    @property
    def board(self) -> BoardHandle | None:
        """Its handle on the run's board, in a run that has one."""
        module = self.modules.typed(ModuleKind.BOARD, BoardModule)
        return None if module is None else module.handle

    def fork(self, ids: StoreIds, copy_id: str = "") -> tuple[Holdings[HeldSurface], list[Row]]:
        """An independent copy for the copy of the agent `copy_id`, and the fork's rows; the two
        diverge here."""
        modules, rows = self.modules.fork(ids, Instance(copy_id))
        library = None if self.library is None else self.library.fork()
        return Holdings(modules, self.surface.fresh(), library), rows

    def library_row(self, new: Holdings[HeldSurface], *, fork: bool = False) -> LibraryRow:
        """What a fork (`fork`) or a succession that made `new` of these holdings did to the library."""
        return library_row(_programs(self.library), _programs(new.library), fork=fork)

    def transfer(
        self, holder: Holder, surface: HeldSurface, settings: LibrarySettings | None, carried: Plan
    ) -> tuple[Holdings[HeldSurface], Transfer]:
        """What a successor holds once it takes these over under its own profile (`holder`, its
        surface opened from its grant, its library settings), carrying `carried.kinds`."""
        moved = self.modules.transfer(holder, carried.kinds, carried.ids, Instance(carried.successor))
        library = adopt_library(self.library, settings, carried.minter)
        return Holdings(moved.modules, surface, library), moved


@dataclass(frozen=True)
class Plan:
    """A succession's plan: the kinds it carries, the run's store ids and program-id minter, and
    the successor's agent id."""

    kinds: frozenset[ModuleKind]
    ids: StoreIds
    minter: Minter
    successor: str = ""


def adopt_library(
    carried: ProgramLibrary | None, settings: LibrarySettings | None, minter: Minter
) -> ProgramLibrary | None:
    """A successor resolves its library from its own profile, then adopts what was carried
    (entries and issued ids) truncated to its own `keep`; a successor that keeps none keeps
    nothing."""
    if settings is None:
        return None
    if carried is None:
        return ProgramLibrary(settings.keep, settings.id_length, minter)
    return carried.adopted_by(settings.keep, settings.id_length)


def _programs(library: ProgramLibrary | None) -> int | None:
    return None if library is None else len(library.entries)
