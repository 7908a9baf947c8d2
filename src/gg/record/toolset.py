"""What one profile's agents were offered, what its ablation withheld, and what they called. Pure.

Rules:
- a profile's toolset is the union over its instances: each operation any instance was offered
  (with how many instances were offered it), each one withheld (`disabledOperations`), and each
  one called, with its calls summed over the instances;
- an operation offered and never called reads 0 calls; a withheld one a program called anyway is
  listed withheld with the calls that were refused; one called that was neither offered nor
  withheld (a name the SDK does not hold, a call its capability does not bind) is listed apart;
- a profile none of whose instances recorded its surface (a run recorded before gg said) has no
  toolset: whether an ablation applied is unknown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from gg.record.agents import RecordedInstance


class Offer(StrEnum):
    """How an operation stood for a profile's agents."""

    OFFERED = "offered"
    WITHHELD = "withheld"
    UNOFFERED = "not offered"  # called, but neither offered nor withheld


@dataclass(frozen=True)
class ToolRow:
    operation: str  # its wire key, `files.read_file`
    offer: Offer
    calls: int
    instances: int = 0  # how many of the profile's instances were offered it


@dataclass(frozen=True)
class Toolset:
    rows: tuple[ToolRow, ...]
    instances: int  # the profile's instances that recorded their surface

    def of(self, offer: Offer | str) -> list[ToolRow]:
        return [row for row in self.rows if row.offer == offer]

    @property
    def called(self) -> list[ToolRow]:
        return [row for row in self.rows if row.calls]


def profile_toolset(instances: Sequence[RecordedInstance], calls: Mapping[str, int]) -> Toolset | None:
    """The toolset of a profile's `instances`, whose calls by operation are `calls`; None when no
    instance recorded what it was offered."""
    reported = [i for i in instances if i.offered is not None]
    if not reported:
        return None
    offered: Counter[str] = Counter(op for i in reported for op in i.offered or ())
    withheld = list(dict.fromkeys(op for i in reported for op in i.withheld or ()))
    rows = [ToolRow(op, Offer.OFFERED, calls.get(op, 0), count) for op, count in offered.items()]
    rows += [ToolRow(op, Offer.WITHHELD, calls.get(op, 0)) for op in withheld if op not in offered]
    listed = {row.operation for row in rows}
    rows += [ToolRow(op, Offer.UNOFFERED, n) for op, n in calls.items() if op not in listed]
    return Toolset(tuple(rows), len(reported))
