"""The `memories` kind in the module framework (seed 003): a holder of a memory store, as one slot
of an agent instance's set.

- Bound by the profile's `scope` (`open_holder`): `isolated` a store of its own, `shared` the run's
  one store of the profile (`Holder.memory_stores`), `inherited` and `read-only` the store the
  spawner's set holds when it is organized the same way. The roster row carries the declared scope
  and whether the holder may write.
- Prompt: the strategy's pinned block (every body, the index, or nothing), built at a compaction
  boundary and at the first turn of a holder that bound a store somebody else filled; co-holders'
  writes reach the tail once as a notice; the system prompt's section is `guide_text`.
- Reports: `memory_state` as it arrives; after that, each of its own writes as one
  `memory_revision`, and a fresh `memory_state` whenever the store moved (a co-holder's write too).
- Copied: a fork links a holder scoped other than `isolated` (same store and id) and copies an
  `isolated` one (new store and id, counters carried); the copy is re-stamped with its own agent id.
- Handed on: carried (re-pointed to the receiving caps only when it is the store's sole holder; a
  `shared` successor re-bound to its own profile's store, under that store's id), or, under another
  strategy, `Incompatible`, and the successor starts a fresh store. What does not cross is released.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gg.config.kinds import ModuleKind, Origin
from gg.config.memories.profile import MemoryProfile, Scope
from gg.errors import FatalFault, GgDefect
from gg.state.memories.holder import MemoryHolder
from gg.state.memories.prompt import BlockMoment, block_at, call_names, guide, notice_text
from gg.state.memories.report import drain, snapshot
from gg.state.memories.scopes import ProfileStores, open_holder
from gg.state.memories.store import MemoryStore
from gg.state.memories.transfer import Carried, adopt, fork
from gg.state.memories.transfer import Incompatible as Unreadable
from gg.state.module import Bound, Holder, Incompatible, Instance, Module, Moment, Spelling
from gg.state.storeids import StoreIds
from gg.state.window import Band
from gg.telemetry.events import Payload


@dataclass(eq=False)
class MemoriesModule(Module):
    kind: ClassVar[ModuleKind] = ModuleKind.MEMORIES
    band: ClassVar[Band | None] = Band.MEMORY
    holder: MemoryHolder

    @classmethod
    def fresh(cls, holder: Holder) -> MemoriesModule:
        """A store of its own, attributed to no agent yet (a run binds one with `bind`)."""
        profile = _profile(holder)
        store = MemoryStore(profile.strategy, profile.caps)
        writable = profile.scope is not Scope.READ_ONLY
        return cls(MemoryHolder(store, "", "", scope=profile.scope, writable=writable, origin=Origin.CREATED))

    @classmethod
    def bind(cls, holder: Holder, instance: Instance, ids: StoreIds) -> Bound:
        offered = None if instance.spawner is None else instance.spawner.get(ModuleKind.MEMORIES)
        spawner = offered.holder if isinstance(offered, MemoriesModule) else None
        bound = open_holder(_profile(holder), instance.agent_id, ids, _stores(holder), spawner)
        return Bound(cls(bound), bound.module_id, bound.origin)

    def copy(self) -> MemoriesModule:
        """A copy of the store under the same holder's name (a run's fork goes through `forked`,
        which mints the copy its id and re-stamps it)."""
        held = self.holder
        return MemoriesModule(
            MemoryHolder(
                held.store.copy(),
                held.module_id,
                held.agent_id,
                scope=held.scope,
                writable=held.writable,
                origin=Origin.FORKED,
            )
        )

    def links_on_fork(self) -> bool:
        return self.holder.scope is not Scope.ISOLATED

    def forked(self, instance: Instance, ids: StoreIds, module_id: str) -> Bound:
        copy = fork(self.holder, instance.agent_id, ids).holder
        return Bound(MemoriesModule(copy), copy.module_id, copy.origin)

    def adopted(
        self, holder: Holder, instance: Instance, ids: StoreIds, module_id: str
    ) -> Bound | Incompatible:
        taken = adopt(self.holder, _profile(holder), instance.agent_id, _stores(holder), ids)
        if isinstance(taken, Unreadable):
            return Incompatible(taken.reason)
        if not isinstance(taken, Carried):  # the framework drops what the receiving profile turns off
            raise GgDefect(FatalFault.HOST_FAULT, "memories were carried to a profile that keeps none")
        return Bound(MemoriesModule(taken.holder), taken.holder.module_id, taken.holder.origin)

    def release(self) -> None:
        self.holder.release()

    @property
    def scope(self) -> str | None:
        return self.holder.scope.value

    @property
    def writable(self) -> bool:
        return self.holder.writable

    def restate(self, module_id: str) -> list[Payload]:
        return [snapshot(self.holder)]

    def drain(self, module_id: str) -> list[Payload]:
        return drain(self.holder)

    def block(self, moment: Moment, spell: Spelling) -> str | None:
        return block_at(self.holder, BlockMoment(moment.value))

    def notice(self, spell: Spelling) -> str | None:
        return notice_text(self.holder, call_names(spell))

    def guide_text(self, spell: Spelling) -> str:
        """The system prompt's section on these memories, naming no call the profile withholds."""
        return guide(self.holder, call_names(spell))


def _profile(holder: Holder) -> MemoryProfile:
    if holder.memories is None:
        raise GgDefect(FatalFault.HOST_FAULT, "a memories module was bound for a profile without memories")
    return holder.memories


def _stores(holder: Holder) -> ProfileStores:
    if holder.memory_stores is None:
        raise GgDefect(FatalFault.HOST_FAULT, "a memories module was bound outside a run's shared stores")
    return holder.memory_stores
