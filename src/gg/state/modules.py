"""A holder's module set (seed 003, "Modules"): one slot per kind, always in kind order, and how a
fork and a succession build the next set from it.

- A kind its holder does not hold is `absent`: the slot holds no module and reports an empty store
  id. A kind is held when the set knows its module class and the holder's profile enables its
  capability (`gg.config.kinds`).
- `ModuleSet.fork` and `ModuleSet.transfer` act on the deciders of `gg.state.dispositions` and
  build the new set and its `agent_transition` rows; a carried module the receiving profile cannot
  read (`Incompatible`) is started fresh instead, and the reason joins the successor's opening
  note. A run-global kind (the board) is carried by every succession, named or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from gg.config.kinds import KIND_ORDER, Disposition, ModuleKind, Origin, held_by_profile
from gg.state.dispositions import PlanStep, Row, fork_dispositions, transfer_steps
from gg.state.module import Holder, Incompatible, Instance, Module, ModuleClasses
from gg.state.storeids import StoreIds

if TYPE_CHECKING:
    from gg.state.window import Window
    from gg.telemetry.events import Payload

__all__ = ["ModuleSet", "Slot", "Transfer", "receiving_kinds"]

M = TypeVar("M", bound=Module)


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

    def typed(self, kind: ModuleKind, module_class: type[M]) -> M | None:
        """The module of `kind`, when this set holds one of `module_class`."""
        module = self._slots[kind].module
        return module if isinstance(module, module_class) else None

    def refresh(self, window: Window) -> None:
        """A turn boundary: every module rebuilds its part of `window`."""
        for module in self.modules():
            module.refresh(window)

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
        `carried` and every run-global kind it holds; every module that does not cross is let go of."""
        run_global = {kind for kind in self.held() if self._classes[kind].run_global}
        steps = transfer_steps(self.held(), receiving_kinds(holder, self._classes), carried | run_global)
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
        step: PlanStep,
        holder: Holder,
        ids: StoreIds,
        reasons: list[str],
        instance: Instance,
    ) -> tuple[Slot | None, Row]:
        old = self._slots[kind]
        source = old.module_id or None
        if step is PlanStep.ABSENT:
            return None, Row(kind, Disposition.ABSENT)
        if step is PlanStep.CARRY and old.module is not None:
            adopted = old.module.adopted(holder, instance, ids, old.module_id)
            if not isinstance(adopted, Incompatible):
                return Slot(kind, adopted.module_id, adopted.origin, adopted.module), Row(
                    kind, Disposition.CARRIED, source, adopted.module_id
                )
            reasons.append(adopted.reason)
        if old.module is not None:
            old.module.release()
        if step is PlanStep.DROP:
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
