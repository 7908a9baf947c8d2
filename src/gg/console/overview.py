"""Each kind's overview on the Modules tab, and each store's figures. Pure.

Rules:
- A kind's overview: how many stores, how many holders between them and how many still run,
  how many stores are genuinely shared and the widest, the per-turn cost summed over the
  windows carrying them (and its average over the windows that reported one), how many were
  never written to, and every store side by side.
- Two figures are withheld where they would be a lie rather than a zero: history has no
  never-written figure (a window reports itself per turn, not as a snapshot), and a cost keeps
  its state (measured zero, not measured yet, no context band for the archive).
- A holder is live while it has not released the store; it still runs while its instance does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gg.console.context import ContextTurn
from gg.console.cost import Cost, StoreCost, store_cost, sum_costs
from gg.console.modules import IndexedStore, ModuleIndex
from gg.console.vocabulary import ModuleKind


@dataclass(frozen=True)
class StoreFigures:
    store: IndexedStore
    cost: StoreCost
    live: tuple[str, ...]
    running: tuple[str, ...]


@dataclass(frozen=True)
class KindOverview:
    kind: ModuleKind
    stores: tuple[StoreFigures, ...]
    holders: int
    running: int
    shared: int
    widest: int
    cost: Cost
    windows_reporting: int
    never_written: int | None  # withheld (None) for history

    @property
    def average(self) -> float | None:
        if not self.cost.known or not self.windows_reporting:
            return None
        return (self.cost.latest or 0.0) / self.windows_reporting


def store_figures(
    store: IndexedStore,
    running: set[str],
    reported: Mapping[str, Mapping[int, ContextTurn]],
    estimated: Mapping[str, Mapping[int, ContextTurn]],
) -> StoreFigures:
    live = tuple(h.agent_id for h in store.holders if h.agent_id not in store.released_by)
    still = tuple(a for a in live if a in running)
    return StoreFigures(store, store_cost(store, live, reported, estimated), live, still)


def kind_overviews(
    index: ModuleIndex,
    running: set[str],
    reported: Mapping[str, Mapping[int, ContextTurn]],
    estimated: Mapping[str, Mapping[int, ContextTurn]],
) -> list[KindOverview]:
    out: list[KindOverview] = []
    for kind, stores in index.by_kind().items():
        figures = tuple(store_figures(s, running, reported, estimated) for s in stores)
        out.append(_overview(kind, figures))
    return out


def _overview(kind: ModuleKind, figures: tuple[StoreFigures, ...]) -> KindOverview:
    holders = {h.agent_id for f in figures for h in f.store.holders}
    running = {a for f in figures for a in f.running}
    live_costs = [f.cost.per_holder[a] for f in figures for a in f.live if a in f.cost.per_holder]
    shared = [f for f in figures if f.store.shared]
    return KindOverview(
        kind=kind,
        stores=figures,
        holders=len(holders),
        running=len(running),
        shared=len(shared),
        widest=max((len(f.store.concurrent) for f in shared), default=0),
        cost=sum_costs(live_costs),
        windows_reporting=sum(1 for cost in live_costs if cost.known),
        never_written=None if kind is ModuleKind.HISTORY else sum(1 for f in figures if not f.store.written),
    )
