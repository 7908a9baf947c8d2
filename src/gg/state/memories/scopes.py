"""Which store a new holder binds (its scope), decided by a pure rule, then opened.

`decide_binding(profile, spawner)` — `spawner` is the strategy of the store the agent's spawner
offers, or None (the run's root, an agent gg dispatches itself, a spawner keeping no memories):
| scope | binds | origin | writable |
|---|---|---|---|
| `isolated` | a store of its own | created | yes |
| `shared` | its profile's store, created by the first instance that binds it | profile | yes |
| `inherited` | the spawner's, if organized as this profile's; else its own | inherited / created | yes |
| `read-only` | as `inherited` | inherited / created | no |
A `read-only` holder never writes: with no spawner's store to read, it reads a store of its own,
which therefore stays empty.
Inheritance is an offer the spawner makes whatever its own scope, and it chains: the store a
spawner holds (however it came by it) is the one it offers.

`ProfileStores` is the run's registry of `shared` stores, one per profile, each minted its id
(`memories-<n>`) when first bound; it is safe from several agent threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from enum import StrEnum

from gg.config.kinds import ModuleKind, Origin
from gg.config.memories.profile import MemoryProfile, Scope
from gg.config.memories.strategy import Strategy
from gg.state.memories.holder import MemoryHolder
from gg.state.memories.store import MemoryStore
from gg.state.storeids import StoreIds

KIND = ModuleKind.MEMORIES.value  # the prefix of every store id minted here


class ScopeSource(StrEnum):
    OWN = "own"
    SPAWNER = "spawner"
    PROFILE = "profile"


@dataclass(frozen=True)
class BindingDecision:
    source: ScopeSource
    origin: Origin
    writable: bool


def decide_binding(profile: MemoryProfile, spawner: Strategy | None) -> BindingDecision:
    """Where a new holder of `profile` binds, given the strategy its spawner's store offers."""
    if profile.scope is Scope.SHARED:
        return BindingDecision(ScopeSource.PROFILE, Origin.PROFILE, writable=True)
    writable = profile.scope is not Scope.READ_ONLY
    if profile.scope.inherits and spawner is profile.strategy:
        return BindingDecision(ScopeSource.SPAWNER, Origin.INHERITED, writable)
    return BindingDecision(ScopeSource.OWN, Origin.CREATED, writable)


class ProfileStores:
    """The run's `shared` stores, by profile slug."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stores: dict[str, tuple[MemoryStore, str]] = {}

    def bind(self, profile: MemoryProfile, ids: StoreIds) -> tuple[MemoryStore, str]:
        """The profile's store and its id; the first bind creates it under the profile's strategy
        and caps (a later bind takes it as it stands: one store, one set of caps)."""
        with self._lock:
            if profile.profile not in self._stores:
                self._stores[profile.profile] = (MemoryStore(profile.strategy, profile.caps), ids.mint(KIND))
            return self._stores[profile.profile]


def open_holder(
    profile: MemoryProfile,
    agent_id: str,
    ids: StoreIds,
    registry: ProfileStores,
    spawner: MemoryHolder | None = None,
) -> MemoryHolder:
    """The holder a new instance `agent_id` of `profile` binds; `spawner` is its spawner's holder."""
    decision = decide_binding(profile, None if spawner is None else spawner.strategy)
    scope, writable, origin = profile.scope, decision.writable, decision.origin
    if decision.source is ScopeSource.SPAWNER and spawner is not None:
        return spawner.share(agent_id, origin=origin, scope=scope, writable=writable)
    if decision.source is ScopeSource.PROFILE:
        store, module_id = registry.bind(profile, ids)
    else:
        store, module_id = MemoryStore(profile.strategy, profile.caps), ids.mint(KIND)
    return MemoryHolder(store, module_id, agent_id, scope=scope, writable=writable, origin=origin)
