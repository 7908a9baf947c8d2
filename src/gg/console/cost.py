"""What a module costs the windows carrying it. Pure.

Rules:
- A kind costs its holder's window its own band (memories Memory, tasks TaskList, board Board,
  skills Skill); history costs the whole window; the archive has no band by construction.
- An instance that reported a `context_breakdown` without the kind's band carried none of it:
  a measured zero. An instance that reported none has a cost not measured yet. History falls
  back to the window's size estimated from its requests, in characters, and says so.
- Across holders, the cost is summed over the live ones (those that have not released the
  store); a store no holder still holds has no live holder to cost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from gg.console.context import ContextTurn
from gg.console.modules import IndexedStore
from gg.console.vocabulary import KIND_BAND, ModuleKind


class CostState(StrEnum):
    MEASURED = "measured"
    ESTIMATED = "estimated"
    UNMEASURED = "not measured yet"
    NO_BAND = "no context band"
    NO_HOLDER = "no live holder"


@dataclass(frozen=True)
class Cost:
    state: CostState
    latest: float | None = None
    peak: float | None = None
    unit: str = ""

    @property
    def known(self) -> bool:
        return self.state in (CostState.MEASURED, CostState.ESTIMATED)

    @property
    def label(self) -> str:
        if self.state is CostState.MEASURED and not self.latest:
            return "measured zero"
        return self.state.value


def holder_cost(
    kind: ModuleKind,
    reported: Mapping[int, ContextTurn] | None,
    estimated: Mapping[int, ContextTurn] | None = None,
) -> Cost:
    """What one kind costs one instance's window per turn: its latest and its peak."""
    if kind is ModuleKind.ARCHIVE:
        return Cost(CostState.NO_BAND)
    band = KIND_BAND[kind]
    if reported:
        sizes = [(turn.total if band is None else turn.band(band) or 0.0) for turn in _ordered(reported)]
        return Cost(CostState.MEASURED, sizes[-1], max(sizes), next(iter(reported.values())).unit)
    if kind is ModuleKind.HISTORY and estimated:
        sizes = [turn.total for turn in _ordered(estimated)]
        return Cost(CostState.ESTIMATED, sizes[-1], max(sizes), next(iter(estimated.values())).unit)
    return Cost(CostState.UNMEASURED)


@dataclass(frozen=True)
class StoreCost:
    per_holder: dict[str, Cost]
    live_total: Cost  # summed over the live holders that reported one


def store_cost(
    store: IndexedStore,
    live: Iterable[str],
    reported: Mapping[str, Mapping[int, ContextTurn]],
    estimated: Mapping[str, Mapping[int, ContextTurn]],
) -> StoreCost:
    per_holder = {h.agent_id: _holder(store.kind, h.agent_id, reported, estimated) for h in store.holders}
    return StoreCost(
        per_holder,
        sum_costs([per_holder[a] for a in live if a in per_holder]),
    )


def _holder(
    kind: ModuleKind,
    agent_id: str,
    reported: Mapping[str, Mapping[int, ContextTurn]],
    estimated: Mapping[str, Mapping[int, ContextTurn]],
) -> Cost:
    """A holder's cost, estimating its window only when it is a window no breakdown measured."""
    measured = reported.get(agent_id)
    fallback = estimated.get(agent_id) if not measured and kind is ModuleKind.HISTORY else None
    return holder_cost(kind, measured, fallback)


def sum_costs(costs: list[Cost]) -> Cost:
    """The sum of several windows' costs: measured when any was, in their shared unit; with no
    window to sum over there is no live holder."""
    if not costs:
        return Cost(CostState.NO_HOLDER)
    if all(cost.state is CostState.NO_BAND for cost in costs):
        return Cost(CostState.NO_BAND)
    known = [cost for cost in costs if cost.known]
    if not known:
        return Cost(CostState.UNMEASURED)
    state = CostState.MEASURED if any(c.state is CostState.MEASURED for c in known) else CostState.ESTIMATED
    return Cost(
        state,
        sum(c.latest or 0.0 for c in known),
        sum(c.peak or 0.0 for c in known),
        known[0].unit,
    )


def _ordered(turns: Mapping[int, ContextTurn]) -> list[ContextTurn]:
    return [turns[number] for number in sorted(turns)]
