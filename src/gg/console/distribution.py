"""How each profile's instances hold each kind: the Agents tab's badges and notes. Pure.

Badges, per profile and kind (seed 003, "Agents tab"):
- `run-global`: the board, or one store whose first holder runs under another profile.
- `agent-scoped`: one store, held concurrently by every instance of the profile (two or more).
- `handed on`: one store, held by several instances one at a time (across profiles too).
- `split`: several stores, at least one genuinely shared.
- `per instance`: every instance holds its own (one instance holding one store included).
Notes name the declared value, the observed one and the likely cause; they are written only
for a run that reported its rosters: a declared `scope: inherited` whose every instance got
its own store, and a declared `shared` observed as more than one store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from gg.console.modules import IndexedStore, ModuleIndex
from gg.console.vocabulary import KIND_ORDER, ModuleKind, Origin

INHERITED_SCOPE = "inherited"
SHARED_SCOPE = "shared"


class Badge(StrEnum):
    AGENT_SCOPED = "agent-scoped"
    PER_INSTANCE = "per instance"
    HANDED_ON = "handed on"
    RUN_GLOBAL = "run-global"
    SPLIT = "split"


@dataclass(frozen=True)
class KindRow:
    kind: ModuleKind
    badge: Badge
    stores: tuple[IndexedStore, ...]
    instances: int  # instances of the profile holding the kind
    notes: tuple[str, ...] = ()

    @property
    def inline(self) -> bool:
        """Contents belong to the agent only when it is agent-scoped."""
        return self.badge is Badge.AGENT_SCOPED


def profile_rows(
    index: ModuleIndex, instances: Sequence[str], profile_of: Mapping[str, str]
) -> list[KindRow]:
    """One row per kind the profile's instances hold, in kind order."""
    rows: list[KindRow] = []
    for kind in KIND_ORDER:
        holders = [a for a in instances if index.store_of(a, kind) is not None]
        if not holders:
            continue
        stores = _distinct(index.store_of(a, kind) for a in holders)
        profile = profile_of.get(instances[0], "")
        badge = badge_for(kind, stores, holders, profile, profile_of)
        notes = _notes(index, kind, holders, stores) if index.rosters_reported else ()
        rows.append(KindRow(kind, badge, tuple(stores), len(holders), notes))
    return rows


def badge_for(
    kind: ModuleKind,
    stores: Sequence[IndexedStore],
    holders: Sequence[str],
    profile: str,
    profile_of: Mapping[str, str],
) -> Badge:
    if kind is ModuleKind.BOARD:
        return Badge.RUN_GLOBAL
    if len(stores) > 1:
        return Badge.SPLIT if any(store.shared for store in stores) else Badge.PER_INSTANCE
    store = stores[0]
    concurrent = {h.agent_id for h in store.concurrent if h.agent_id in holders}
    if len(holders) > 1 and len(concurrent) == len(holders):
        return Badge.AGENT_SCOPED
    if store.handed_on:
        return Badge.HANDED_ON
    owner = store.holders[0].agent_id if store.holders else ""
    if profile_of.get(owner, profile) != profile:
        return Badge.RUN_GLOBAL
    return Badge.PER_INSTANCE


def store_reach(store: IndexedStore, profile_of: Mapping[str, str]) -> str:
    """What a store's row names: `(dropped)`; `run-global` for the board or a store held at once
    under several profiles; the profiles in the order it passed through them, for one handed on
    (`planner → reviewer`); or the profile holding it."""
    if store.dropped:
        return "(dropped)"
    concurrent = {profile_of.get(h.agent_id, "") for h in store.concurrent}
    if store.kind is ModuleKind.BOARD or (store.shared and len(concurrent) > 1):
        return "run-global"
    passed = list(dict.fromkeys(profile_of.get(h.agent_id, "") for h in store.holders))
    return " → ".join(passed)


def _notes(
    index: ModuleIndex, kind: ModuleKind, holders: Sequence[str], stores: Sequence[IndexedStore]
) -> tuple[str, ...]:
    if kind is not ModuleKind.MEMORIES:
        return ()
    rows = [index.holdings[a][kind] for a in holders]
    declared = {row.scope for row in rows if row.scope}
    notes: list[str] = []
    fell_back = [row for row in rows if row.scope == INHERITED_SCOPE and row.origin == Origin.CREATED]
    if fell_back and len(fell_back) == len(rows):
        who = "its one instance" if len(rows) == 1 else f"each of the {len(rows)} instances"
        notes.append(
            f"declared scope: inherited, observed: {who} got its own store (origin created); the"
            " spawner held no memories or used another strategy, or gg dispatched it (a board's"
            " implementer or reviewer), which offers none"
        )
    if SHARED_SCOPE in declared and len(stores) > 1:
        notes.append(
            f"declared scope: shared, observed: {len(stores)} stores"
            f" ({', '.join(s.id for s in stores)}); a succession re-bound the profile's store"
        )
    return tuple(notes)


def _distinct(stores: Iterable[IndexedStore | None]) -> list[IndexedStore]:
    seen: dict[str, IndexedStore] = {}
    for store in stores:
        if store is not None and store.id not in seen:
            seen[store.id] = store
    return list(seen.values())
