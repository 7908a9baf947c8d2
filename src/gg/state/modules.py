"""The module framework (seed 003, "Modules"): everything an agent instance holds is one module per
kind, each answering four questions: what it puts in its holder's prompt (its holder's loop reads
it), what it reports (`restate`, `drain`), how it is copied (`copy`, `share`) and what happens to it
when another profile takes it over (`adopt`).

- A `ModuleSet` has one slot per kind, always in kind order. A kind its holder does not hold is
  `absent`: the slot holds no module and reports an empty store id. A kind is held when the set
  knows its module class and the holder's profile enables its capability (`gg.state.kinds`).
- Store ids (`<kind>-<n>`) come from the run's `StoreIds`: a fresh store and a fork's copy mint
  one; a share and a transfer keep theirs. A module that binds a store it did not make (one its
  spawner offers, one its profile keeps for the run) names the store's id and its origin itself
  (`bind`, `forked`, `adopted`), for the agent instance it is bound for (`Instance`).
- What a module puts in its holder's prompt beside the window: a pinned block in its own band
  (`block`, at the holder's first turn and at each compaction boundary) and a notice at the tail
  before the holder's next request (`notice`), each spelt for the holder's arm (`Spelling`).
- Deciders (pure, over values): `fork_dispositions` (a fork copies every kind it holds, except a
  kind whose module links on fork), `transfer_steps` (a succession carries the kinds its plan
  names, drops what the receiving profile turns off, starts fresh what only the receiving profile
  has), `exec_carries` (an exec's plan: every kind both sides have; a machine's edge names its own).
- Acting on a decision: `ModuleSet.fork` and `ModuleSet.transfer` build the new set and the
  `agent_transition` rows; a carried module the receiving profile cannot read (`Incompatible`) is
  started fresh instead, and the reason joins the successor's opening note. A plan that carries a
  kind the outgoing set does not hold is gg's own defect.
Adding a kind is adding its module class (to the set's classes) and its capability.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Self

from gg.errors import FatalFault, GgDefect
from gg.state.kinds import KIND_ORDER, Disposition, ModuleKind, Origin, held_by_profile
from gg.state.storeids import StoreIds
from gg.state.window import Band

if TYPE_CHECKING:
    from gg.sdk.skills import SkillShelf
    from gg.state.memories import MemoryProfile, ProfileStores
    from gg.telemetry.events import Payload

Spelling = Callable[[str], str]
"""An operation's key (`memories.read_memory`) as the holder's arm spells it (`gg.memories.readMemory`)."""


class Moment(StrEnum):
    """When a module's pinned block is (re)built: the holder's first turn, a compaction boundary."""

    FIRST_TURN = "first-turn"
    COMPACTION = "compaction"


@dataclass(frozen=True)
class Holder:
    """The profile a set is opened for or re-resolved against: the capabilities it enables, its
    skills catalogue, whether the run has a board (which every agent of such a run holds), what its
    memories resolve to and the run's `shared` memory stores (one per profile)."""

    capabilities: frozenset[str]
    catalogue: SkillShelf | None = None
    run_has_board: bool = False
    memories: MemoryProfile | None = None
    memory_stores: ProfileStores | None = None


@dataclass(frozen=True)
class Instance:
    """The agent instance a set is opened, copied or handed on for: its id, and (a subagent) the
    set of the agent that spawned it, whose stores it may be offered."""

    agent_id: str = ""
    spawner: ModuleSet | None = None


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


@dataclass(frozen=True)
class Slot:
    """One kind of a set: its store's id, how this holder came by it, and the module."""

    kind: ModuleKind
    module_id: str = ""
    origin: Origin | None = None
    module: Module | None = None

    def row(self) -> dict[str, Any]:
        """Its roster row (`agent_modules.modules`)."""
        row: dict[str, Any] = {
            "kind": self.kind.value,
            "moduleId": self.module_id,
            "enabled": self.module is not None,
        }
        if self.module is None:
            return {**row, "writable": False}
        row["origin"] = (self.origin or Origin.CREATED).value
        if self.module.scope is not None:
            row["scope"] = self.module.scope
        return {**row, "writable": self.module.writable}


@dataclass(frozen=True)
class Row:
    """What a fork or a succession did to one kind (`agent_transition.modules`)."""

    kind: ModuleKind
    disposition: Disposition
    source: str | None = None
    target: str | None = None

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"kind": self.kind.value, "disposition": self.disposition.value}
        if self.source:
            wire["from"] = self.source
        if self.target:
            wire["to"] = self.target
        return wire


class Step(StrEnum):
    """What a succession's plan does to one kind, before the module has its say."""

    CARRY = "carry"
    DROP = "drop"
    INITIALIZE = "initialize"
    ABSENT = "absent"


def fork_dispositions(links: Mapping[ModuleKind, bool | None]) -> dict[ModuleKind, Disposition]:
    """Per kind, in kind order: `links[kind]` is None where the forker holds nothing, else whether
    its module links on fork."""
    decided: dict[ModuleKind, Disposition] = {}
    for kind in KIND_ORDER:
        link = links.get(kind)
        decided[kind] = (
            Disposition.ABSENT if link is None else Disposition.LINKED if link else Disposition.COPIED
        )
    return decided


def exec_carries(held: frozenset[ModuleKind], receiving: frozenset[ModuleKind]) -> frozenset[ModuleKind]:
    """An exec carries every kind the outgoing set holds and the receiving profile enables."""
    return held & receiving


def transfer_steps(
    held: frozenset[ModuleKind], receiving: frozenset[ModuleKind], carried: frozenset[ModuleKind]
) -> dict[ModuleKind, Step]:
    """Per kind, in kind order. Raises `GgDefect` for a plan carrying a kind not held."""
    missing = sorted(carried - held, key=KIND_ORDER.index)
    if missing:
        names = ", ".join(kind.value for kind in missing)
        raise GgDefect(
            FatalFault.HOST_FAULT, f"a transfer carries {names}, which the outgoing agent does not hold"
        )
    steps: dict[ModuleKind, Step] = {}
    for kind in KIND_ORDER:
        if kind in carried:
            steps[kind] = Step.CARRY if kind in receiving else Step.DROP
        elif kind in receiving:
            steps[kind] = Step.INITIALIZE
        else:
            steps[kind] = Step.DROP if kind in held else Step.ABSENT
    return steps


@dataclass
class Transfer:
    """A transfer's result: the successor's set, the rows, and the reasons for its opening note."""

    modules: ModuleSet
    rows: list[Row]
    reasons: list[str] = field(default_factory=list[str])


class ModuleSet:
    """One holder's modules, a slot per kind in kind order."""

    def __init__(self, slots: Sequence[Slot], classes: ModuleClasses) -> None:
        by_kind = {slot.kind: slot for slot in slots}
        self._slots = {kind: by_kind.get(kind, Slot(kind)) for kind in KIND_ORDER}
        self._classes = classes

    @classmethod
    def open(
        cls, holder: Holder, ids: StoreIds, classes: ModuleClasses, instance: Instance | None = None
    ) -> ModuleSet:
        """A new holder's set: the store each kind it holds binds (a fresh one, as a rule)."""
        instance = instance or Instance()
        bound = [
            (kind, classes[kind].bind(holder, instance, ids)) for kind in receiving_kinds(holder, classes)
        ]
        return cls([Slot(kind, b.module_id, b.origin, b.module) for kind, b in bound], classes)

    def modules(self) -> list[Module]:
        """The modules it holds, in kind order."""
        return [slot.module for slot in self._slots.values() if slot.module is not None]

    @property
    def classes(self) -> ModuleClasses:
        return self._classes

    def release(self) -> None:
        """Its holder lets go of every module (its agent has ended)."""
        for module in self.modules():
            module.release()

    def slot(self, kind: ModuleKind) -> Slot:
        return self._slots[kind]

    def get(self, kind: ModuleKind) -> Module | None:
        return self._slots[kind].module

    def held(self) -> frozenset[ModuleKind]:
        return frozenset(kind for kind, slot in self._slots.items() if slot.module is not None)

    def roster(self) -> list[dict[str, Any]]:
        return [slot.row() for slot in self._slots.values()]

    def restate(self) -> list[Payload]:
        return [
            p for slot in self._slots.values() if slot.module for p in slot.module.restate(slot.module_id)
        ]

    def drain(self) -> list[Payload]:
        return [p for slot in self._slots.values() if slot.module for p in slot.module.drain(slot.module_id)]

    def fork(self, ids: StoreIds, instance: Instance | None = None) -> tuple[ModuleSet, list[Row]]:
        """The copy's set (for the copy `instance`) and the fork's rows: each kind copied under a
        new id, or linked."""
        instance = instance or Instance()
        links = {k: (s.module.links_on_fork() if s.module else None) for k, s in self._slots.items()}
        slots: list[Slot] = []
        rows: list[Row] = []
        for kind, disposition in fork_dispositions(links).items():
            slot = self._slots[kind]
            if slot.module is None:
                rows.append(Row(kind, Disposition.ABSENT))
                continue
            bound = slot.module.forked(instance, ids, slot.module_id)
            slots.append(Slot(kind, bound.module_id, bound.origin, bound.module))
            rows.append(Row(kind, disposition, slot.module_id, bound.module_id))
        return ModuleSet(slots, self._classes), rows

    def transfer(
        self, holder: Holder, carried: frozenset[ModuleKind], ids: StoreIds, instance: Instance | None = None
    ) -> Transfer:
        """The successor's set (for the successor `instance`) under `holder`'s profile, carrying
        `carried`; every module that does not cross is let go of."""
        steps = transfer_steps(self.held(), receiving_kinds(holder, self._classes), carried)
        slots: list[Slot] = []
        rows: list[Row] = []
        reasons: list[str] = []
        for kind, step in steps.items():
            slot, row = self._step(kind, step, holder, ids, reasons, instance or Instance())
            if slot is not None:
                slots.append(slot)
            rows.append(row)
        return Transfer(ModuleSet(slots, self._classes), rows, reasons)

    def _step(
        self,
        kind: ModuleKind,
        step: Step,
        holder: Holder,
        ids: StoreIds,
        reasons: list[str],
        instance: Instance,
    ) -> tuple[Slot | None, Row]:
        old = self._slots[kind]
        source = old.module_id or None
        if step is Step.ABSENT:
            return None, Row(kind, Disposition.ABSENT)
        if step is Step.CARRY and old.module is not None:
            adopted = old.module.adopted(holder, instance, ids, old.module_id)
            if not isinstance(adopted, Incompatible):
                return Slot(kind, adopted.module_id, adopted.origin, adopted.module), Row(
                    kind, Disposition.CARRIED, source, adopted.module_id
                )
            reasons.append(adopted.reason)
        if old.module is not None:
            old.module.release()
        if step is Step.DROP:
            return None, Row(kind, Disposition.DROPPED, source)
        fresh = self._classes[kind].bind(holder, Instance(instance.agent_id), ids)
        return Slot(kind, fresh.module_id, fresh.origin, fresh.module), Row(
            kind, Disposition.INITIALIZED, source, fresh.module_id
        )


def receiving_kinds(holder: Holder, classes: ModuleClasses) -> frozenset[ModuleKind]:
    """The kinds a holder of `holder`'s profile holds, among those `classes` knows."""
    return frozenset(
        kind
        for kind in KIND_ORDER
        if kind in classes and held_by_profile(kind, holder.capabilities, holder.run_has_board)
    )
