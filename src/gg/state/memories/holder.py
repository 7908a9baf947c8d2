"""One holder of a memory store: the handle an agent instance's programs, prompt and telemetry use.

- A holder names its store and the store's id, the agent its writes are attributed to, the scope
  it declared, whether it may write, and how it came by the store: its `origin` (the roster's
  `Origin`, `gg.config.kinds`), `created` (a store of its own), `inherited` (its spawner's),
  `profile` (its profile's), `transferred` (carried across an exec or a machine's move), `forked`
  (received by a fork copy); a memories holder never has the board's `run`.
- Its two watermarks are registered with the store: `telemetry` (how far it has reported its own
  writes) and `notice` (how far it has been told of other holders' writes). A new holder of an
  existing store starts both at the store's head: it is owed no backlog.
- `share` is a second holder of the same store (same id); `copy_store` is the store a fork copies;
  `restamp` re-attributes the holder to another agent; `release` lets the store forget it.
"""

from __future__ import annotations

from dataclasses import dataclass

from gg.config.kinds import Origin
from gg.config.memories.profile import Scope
from gg.config.memories.strategy import Call, Strategy, offered_calls
from gg.state.memories.memory import Revision
from gg.state.memories.store import Cursors, MemoryStore


@dataclass(frozen=True)
class Taken:
    """What a holder's telemetry watermark passed over: its own revisions, and whether the store
    moved at all (a co-holder's write moves it too)."""

    own: tuple[Revision, ...]
    moved: bool


class MemoryHolder:
    def __init__(
        self,
        store: MemoryStore,
        module_id: str,
        agent_id: str,
        *,
        scope: Scope,
        writable: bool,
        origin: Origin,
    ) -> None:
        self.store = store
        self.module_id = module_id
        self.agent_id = agent_id
        self.scope = scope
        self.writable = writable
        self.origin = origin
        with store.lock:
            self._cursors = Cursors(store.head, store.head)
            store.register(self._cursors)

    @property
    def strategy(self) -> Strategy:
        return self.store.strategy

    @property
    def offered(self) -> tuple[Call, ...]:
        """The calls this holder is offered: its strategy's, or their reads alone when read-only."""
        return offered_calls(self.strategy, self.writable)

    def offers(self, call: Call) -> bool:
        return call in self.offered

    def share(
        self, agent_id: str, *, origin: Origin, scope: Scope | None = None, writable: bool | None = None
    ) -> MemoryHolder:
        """Another holder of this store (same id), for `agent_id`, watermarks at the head; its scope
        and access are this one's unless given."""
        return MemoryHolder(
            self.store,
            self.module_id,
            agent_id,
            scope=self.scope if scope is None else scope,
            writable=self.writable if writable is None else writable,
            origin=origin,
        )

    def restamp(self, agent_id: str) -> None:
        """Attribute this holder's writes, from now on, to `agent_id`."""
        self.agent_id = agent_id

    def co_holders(self) -> int:
        """How many other live holders its store has."""
        return self.store.holders_besides(self._cursors)

    def release(self) -> None:
        """This holder lets go of its store, which no longer keeps its log for it."""
        self.store.release(self._cursors)

    def take_revisions(self) -> Taken:
        """Advance the telemetry watermark to the head: this holder's own revisions since it last
        looked, and whether the log moved."""
        with self.store.lock:
            fresh = self.store.log_since(self._cursors.telemetry)
            self._cursors.telemetry = self.store.head
            self.store.forget_read()
            own = tuple(entry for entry in fresh if entry.author == self.agent_id)
            return Taken(own, bool(fresh))

    def take_news(self) -> tuple[Revision, ...]:
        """Advance the notice watermark to the head: the revisions other holders made since this
        holder was last told."""
        with self.store.lock:
            fresh = self.store.log_since(self._cursors.notice)
            self._cursors.notice = self.store.head
            self.store.forget_read()
            return tuple(entry for entry in fresh if entry.author != self.agent_id)
