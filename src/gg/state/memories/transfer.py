"""A holder copied for a fork, or taken over by a successor under another profile.

`fork(holder, agent_id, ids)`: a forker scoped other than `isolated` stays linked — the copy holds
the same store (same id), watermarks at its head; an `isolated` forker's store is copied — a new
store and id, contents, revision numbers and peaks carried, the copy's log starting at the
original's head (undrained revisions stay with the original, reported once). Either way the copy
keeps the forker's scope and access, its writes are attributed to `agent_id`, and its origin is
`forked`.

`adopt(holder, receiving, agent_id, registry, ids)`, for a successor whose profile resolves to
`receiving` (None: it does not enable memories). Drain the predecessor first: adopt releases it.
- `Dropped`: the receiving profile keeps no memories;
- `Incompatible(reason)`: it organizes them under another strategy; the contents are not carried
  (the successor opens a fresh store, and its opening note carries `reason`);
- `Carried(holder)`: the same store, origin `transferred`; or, for a successor scoped `shared`, its
  own profile's store, origin `profile`, under that store's id. Access follows the successor's
  scope (`read-only` reads only), watermarks start at the head, and the receiving caps are put in
  force only when the successor is the store's sole holder; contents already over them are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from gg.config.kinds import Origin
from gg.config.memories.profile import MemoryProfile, Scope
from gg.state.memories.holder import MemoryHolder
from gg.state.memories.prompt import mismatch_reason
from gg.state.memories.scopes import KIND, ProfileStores
from gg.state.module import Incompatible
from gg.state.storeids import StoreIds


@dataclass(frozen=True)
class Forked:
    holder: MemoryHolder
    linked: bool  # the same store (disposition `linked`), or a copy (`copied`)


@dataclass(frozen=True)
class Carried:
    holder: MemoryHolder


@dataclass(frozen=True)
class Dropped:
    pass


Adoption = Carried | Dropped | Incompatible


def fork(holder: MemoryHolder, agent_id: str, ids: StoreIds) -> Forked:
    if holder.scope is not Scope.ISOLATED:
        return Forked(holder.share(agent_id, origin=Origin.FORKED), linked=True)
    copy = holder.store.copy()
    twin = MemoryHolder(
        copy, ids.mint(KIND), agent_id, scope=holder.scope, writable=holder.writable, origin=Origin.FORKED
    )
    return Forked(twin, linked=False)


def adopt(
    holder: MemoryHolder,
    receiving: MemoryProfile | None,
    agent_id: str,
    registry: ProfileStores,
    ids: StoreIds,
    sole: bool | None = None,
) -> Adoption:
    """`sole` says whether the successor will be its store's only holder; left out, it is counted
    from the holders registered with the store."""
    if receiving is None:
        holder.release()
        return Dropped()
    if receiving.strategy is not holder.strategy:
        holder.release()
        return Incompatible(mismatch_reason(holder.strategy, receiving.strategy))
    if receiving.scope is Scope.SHARED:
        store, module_id = registry.bind(receiving, ids)
        origin = Origin.PROFILE
    else:
        store, module_id, origin = holder.store, holder.module_id, Origin.TRANSFERRED
    with store.lock:
        if sole is None:
            sole = (holder.co_holders() if store is holder.store else store.holders) == 0
        holder.release()
        if sole:
            store.repoint(receiving.caps)
        successor = MemoryHolder(
            store,
            module_id,
            agent_id,
            scope=receiving.scope,
            writable=receiving.scope is not Scope.READ_ONLY,
            origin=origin,
        )
    return Carried(successor)
