"""What a fork or a succession does to each kind (seed 003, "Transfer"), decided over values.

- A fork copies every kind it holds, except a kind whose module links on fork (`fork_dispositions`).
- An exec's plan is every kind both sides have (`exec_carries`); a machine's edge names its own.
- A succession carries the kinds its plan names, drops what the receiving profile turns off, and
  starts fresh what only the receiving profile has (`transfer_steps`); a plan that carries a kind
  the outgoing set does not hold is gg's own defect.
- Each kind's outcome is one `Row` of `agent_transition.modules`: its disposition, with the store
  ids it came from and went to.
- The program library is not a module; what a fork or a succession did to it is one `LibraryRow`
  (`agent_transition.library`, `library_row`): a fork copies it; a successor keeping a library
  carries it, truncated to its own `keep`, or starts one empty when its predecessor kept none;
  a successor keeping none drops it; `absent` when neither side keeps one. `held` counts the
  programs the new holder keeps, `dropped` those of the old it does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gg.config.kinds import KIND_ORDER, Disposition, ModuleKind
from gg.errors import FatalFault, GgDefect

__all__ = [
    "LibraryRow",
    "PlanStep",
    "Row",
    "exec_carries",
    "fork_dispositions",
    "library_row",
    "transfer_steps",
]


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


@dataclass(frozen=True)
class LibraryRow:
    """What a fork or a succession did to the program library (`agent_transition.library`)."""

    disposition: Disposition
    held: int = 0
    dropped: int = 0

    def to_wire(self) -> dict[str, Any]:
        return {"disposition": self.disposition.value, "held": self.held, "dropped": self.dropped}


def library_row(before: int | None, after: int | None, *, fork: bool = False) -> LibraryRow:
    """Given how many programs the old holder kept and the new one keeps (None: it keeps no
    library)."""
    if before is None:
        return LibraryRow(Disposition.ABSENT if after is None else Disposition.INITIALIZED, held=after or 0)
    if after is None:
        return LibraryRow(Disposition.DROPPED, dropped=before)
    return LibraryRow(Disposition.COPIED if fork else Disposition.CARRIED, after, before - after)


class PlanStep(StrEnum):
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
) -> dict[ModuleKind, PlanStep]:
    """Per kind, in kind order. Raises `GgDefect` for a plan carrying a kind not held."""
    missing = sorted(carried - held, key=KIND_ORDER.index)
    if missing:
        names = ", ".join(kind.value for kind in missing)
        raise GgDefect(
            FatalFault.HOST_FAULT, f"a transfer carries {names}, which the outgoing agent does not hold"
        )
    steps: dict[ModuleKind, PlanStep] = {}
    for kind in KIND_ORDER:
        if kind in carried:
            steps[kind] = PlanStep.CARRY if kind in receiving else PlanStep.DROP
        elif kind in receiving:
            steps[kind] = PlanStep.INITIALIZE
        else:
            steps[kind] = PlanStep.DROP if kind in held else PlanStep.ABSENT
    return steps
