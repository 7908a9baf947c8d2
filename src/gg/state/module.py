"""One module (seed 003, "Modules"): everything an agent instance holds is one module per kind,
each answering four questions: what it puts in its holder's prompt (`block`, `notice`, and
`refresh` at each turn boundary), what it reports (`restate`, `drain`), how it is copied (`copy`,
`share`) and what happens to it when another profile takes it over (`adopt`).

- A module that binds a store it did not make (one its spawner offers, one its profile keeps for
  the run) names the store's id and its origin itself (`bind`, `forked`, `adopted`), for the agent
  instance it is bound for (`Instance`); otherwise a fresh store and a fork's copy mint an id
  from the run's `StoreIds`, and a share and a transfer keep theirs.
- What a module puts in its holder's prompt beside the window: a pinned block in its own band
  (`block`, at the holder's first turn and at each compaction boundary) and a notice at the tail
  before the holder's next request (`notice`), each spelt for the holder's arm (`Spelling`); a
  module that rebuilds its block at every turn boundary does so itself (`refresh`: the task list).
- What a holder needs beyond its capabilities (a task list's cap and mode, its seat at the board)
  is resolved once per profile into `Holder.settings`, one entry per kind, read by that kind's
  module.
- A carried module the receiving profile cannot read answers `Incompatible`, with the reason told
  to the successor.
Adding a kind is adding its module class (to `gg.state.holdings.MODULE_CLASSES`) and its capability.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, Protocol, Self, runtime_checkable

from gg.config.kinds import ModuleKind, Origin
from gg.state.storeids import StoreIds

if TYPE_CHECKING:
    from gg.config.memories import MemoryProfile
    from gg.state.memories import ProfileStores
    from gg.state.skills.shelf import SkillShelf
    from gg.state.window import Band, Window
    from gg.telemetry.events import Payload

__all__ = [
    "ArmNames",
    "Bound",
    "HeldModules",
    "Holder",
    "Incompatible",
    "Instance",
    "Module",
    "ModuleClasses",
    "Moment",
    "Spelling",
    "Withholding",
    "withholds",
]

Spelling = Callable[[str], str]
"""An operation's key (`memories.read_memory`) as the holder's arm spells it (`gg.memories.readMemory`)."""


class ArmNames(Protocol):
    """How the holder's arm spells what a refusal names (`gg.sdk.registry.ArmSpelling`): called
    with an operation's key, the operation (a `Spelling`); `argument`, a snake_case argument
    (`on_use` -> `onUse` or `on_use`)."""

    def __call__(self, key: str, /) -> str: ...

    def argument(self, name: str) -> str: ...


@runtime_checkable
class Withholding(Protocol):
    """A spelling that knows which operations the holder's profile withholds (its ablation,
    `disabledOperations`): an arm's (`gg.sdk.registry.ArmSpelling`)."""

    def withholds(self, key: str, /) -> bool: ...


def withholds(spell: Spelling | ArmNames, key: str) -> bool:
    """Whether the holder `spell` spells for is denied operation `key` by its profile's ablation; a
    spelling that does not know (`Withholding`) withholds nothing. A sentence names no withheld
    operation."""
    return isinstance(spell, Withholding) and spell.withholds(key)


class Moment(StrEnum):
    """When a module's pinned block is (re)built: the holder's first turn, a compaction boundary."""

    FIRST_TURN = "first-turn"
    COMPACTION = "compaction"


@dataclass(frozen=True)
class Holder:
    """The profile a set is opened for or re-resolved against: the capabilities it enables, its
    skills catalogue, whether the run has a board (which every agent of such a run holds), what its
    memories resolve to, the run's `shared` memory stores (one per profile), and each other kind's
    settings as that kind's module reads them (`settings[kind]`, resolved once from the profile and
    the run)."""

    capabilities: frozenset[str]
    catalogue: SkillShelf | None = None
    run_has_board: bool = False
    memories: MemoryProfile | None = None
    memory_stores: ProfileStores | None = None
    settings: Mapping[ModuleKind, object] = field(default_factory=dict[ModuleKind, object], hash=False)


class HeldModules(Protocol):
    """The modules an agent holds, as another's binding reads them (`gg.state.modules.ModuleSet`):
    the module of one kind, or None."""

    def get(self, kind: ModuleKind) -> Module | None: ...


@dataclass(frozen=True)
class Instance:
    """The agent instance a set is opened, copied or handed on for: its id, and (a subagent) the
    set of the agent that spawned it, whose stores it may be offered."""

    agent_id: str = ""
    spawner: HeldModules | None = None


@dataclass(frozen=True)
class Bound:
    """A module as its holder binds it: the module, its store's id, how the holder came by it."""

    module: Module
    module_id: str
    origin: Origin


@dataclass(frozen=True)
class Incompatible:
    """A carried module the receiving profile cannot read; `reason` is told to the successor."""

    reason: str


class Module(ABC):
    """One kind's state for one holder."""

    kind: ClassVar[ModuleKind]
    shared_origin: ClassVar[Origin] = Origin.FORKED  # a fork copy's origin for a linked store
    band: ClassVar[Band | None] = None  # the band its pinned block stands in, if it pins one
    run_global: ClassVar[bool] = False  # the run's one store: every succession carries it

    @classmethod
    @abstractmethod
    def fresh(cls, holder: Holder) -> Self:
        """A new, empty store for a holder of `holder`'s profile."""

    @classmethod
    def bind(cls, holder: Holder, instance: Instance, ids: StoreIds) -> Bound:
        """The module a new holder binds: a fresh store under a new id, unless the kind says otherwise."""
        return Bound(cls.fresh(holder), ids.mint(cls.kind.value), Origin.CREATED)

    def forked(self, instance: Instance, ids: StoreIds, module_id: str) -> Bound:
        """The module a fork copy holds: linked (the same store and id) or a copy under a new id."""
        if self.links_on_fork():
            return Bound(self.share(), module_id, self.shared_origin)
        return Bound(self.copy(), ids.mint(self.kind.value), Origin.FORKED)

    def adopted(
        self, holder: Holder, instance: Instance, ids: StoreIds, module_id: str
    ) -> Bound | Incompatible:
        """The module a successor takes over (`adopt`), under the store id it carries."""
        adopted = self.adopt(holder)
        if isinstance(adopted, Incompatible):
            return adopted
        return Bound(adopted, module_id, Origin.TRANSFERRED)

    def release(self) -> None:  # noqa: B027 - most kinds keep nothing for their holders
        """Its holder lets go of it (dropped, replaced, or its agent ended)."""

    def block(self, moment: Moment, spell: Spelling) -> str | None:
        """The block it pins in its band at `moment`, or None when it builds none then."""
        return None

    def notice(self, spell: Spelling) -> str | None:
        """What it tells its holder at the tail of the window before the next request, once."""
        return None

    def refresh(self, window: Window) -> None:
        """What it rebuilds in its holder's window at each turn boundary (before each request)."""
        return None

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy (a fork): its own contents, counters carried, nothing undrained."""

    def links_on_fork(self) -> bool:
        """Whether a fork shares this store instead of copying it."""
        return False

    def share(self) -> Module:
        """A linked handle on the same store, reporting from the store's head."""
        return self

    def adopt(self, holder: Holder) -> Module | Incompatible:
        """This module as a successor under `holder`'s profile takes it over."""
        return self

    @property
    def scope(self) -> str | None:
        return None

    @property
    def writable(self) -> bool:
        return True

    def restate(self, module_id: str) -> list[Payload]:
        """Its snapshot, as it arrives with a holder (an empty list: it reports none)."""
        return []

    def drain(self, module_id: str) -> list[Payload]:
        """What it has to report since it last reported."""
        return []


ModuleClasses = Mapping[ModuleKind, type[Module]]
