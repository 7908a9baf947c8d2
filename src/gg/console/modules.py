"""The module index: every backing store of a run, who held it, what happened to it, what it
holds (seed 003, "Inspecting modules in the console"). Pure; the three module surfaces all
read this one index.

Rules:
- Holders come from the rosters (`agent_modules`, one per incarnation): a row that is enabled
  and names a store id makes its agent a holder of that store.
- Lifetime comes from `agent_transition.modules`, oldest first, each row naming the succession
  that caused it: `carried`, `copied` (on the new id, naming its source), `linked`, `dropped`;
  `initialized` is a release of the old id and a `created` on the new one. A store's first
  roster row adds its `created` entry unless a `copied` or `initialized` row already made it.
- Released: a `dropped` row, the old side of `initialized`, the predecessor side of `carried`.
  A store is dropped only when every holder released it.
- Concurrent holders are those whose origin is not `transferred`: the ones that joined the
  store rather than replacing its previous holder. Shared iff more than one; several holders
  with at most one concurrent is handed on, and counts as shared nowhere.
- Contents are the latest snapshot carrying the store's id; `memory_revision` (which carries no
  id) counts as a write to its author's memories store.
- A run with no rosters at all gets one inferred store per instance's window,
  `legacy:<agent>:history`, badged inferred.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.console.vocabulary import (
    KIND_ORDER,
    SNAPSHOT_KIND,
    AgentEvent,
    Disposition,
    ModuleEvent,
    ModuleKind,
    Origin,
)
from gg.record.envelope import records_of
from gg.record.records import dict_of, list_of

LEGACY_PREFIX = "legacy:"
CREATED = "created"
RELEASED = "released"


@dataclass(frozen=True)
class IndexedHolder:
    agent_id: str
    origin: str
    scope: str | None = None
    writable: bool = True

    @property
    def concurrent(self) -> bool:
        return self.origin != Origin.TRANSFERRED


@dataclass(frozen=True)
class LifeEvent:
    """One thing that happened to a store: `what` befell it at `agent`, by `succession`."""

    what: str  # created | carried | copied | linked | dropped | released
    agent: str
    to_agent: str | None = None
    succession: str | None = None  # exec | fork | fsm, or None for an opening roster
    other_id: str | None = None  # a copy's source; the store an initialized kind started


@dataclass
class IndexedStore:
    id: str
    kind: ModuleKind
    holders: list[IndexedHolder] = field(default_factory=list[IndexedHolder])
    lifetime: list[LifeEvent] = field(default_factory=list[LifeEvent])
    released_by: set[str] = field(default_factory=set[str])
    snapshot: dict[str, Any] | None = None
    snapshot_agent: str | None = None
    written: bool = False
    revisions: int = 0
    bodies: dict[str, str] = field(default_factory=dict[str, str])  # memory name -> its latest text
    inferred: bool = False

    @property
    def concurrent(self) -> list[IndexedHolder]:
        return [h for h in self.holders if h.concurrent]

    @property
    def shared(self) -> bool:
        return len(self.concurrent) > 1

    @property
    def handed_on(self) -> bool:
        return len(self.holders) > 1 and not self.shared

    @property
    def dropped(self) -> bool:
        return bool(self.holders) and all(h.agent_id in self.released_by for h in self.holders)

    def holder(self, agent_id: str) -> IndexedHolder | None:
        return next((h for h in self.holders if h.agent_id == agent_id), None)

    def co_holders(self, agent_id: str) -> list[IndexedHolder]:
        return [h for h in self.holders if h.agent_id != agent_id]


@dataclass(frozen=True)
class Holding:
    """One roster row of one instance, enabled or not."""

    kind: ModuleKind
    module_id: str
    enabled: bool
    origin: str
    scope: str | None
    writable: bool


@dataclass
class ModuleIndex:
    stores: dict[str, IndexedStore] = field(default_factory=dict[str, IndexedStore])
    holdings: dict[str, dict[ModuleKind, Holding]] = field(
        default_factory=dict[str, dict[ModuleKind, Holding]]
    )
    rosters_reported: bool = False

    def by_kind(self) -> dict[ModuleKind, list[IndexedStore]]:
        grouped: dict[ModuleKind, list[IndexedStore]] = {kind: [] for kind in KIND_ORDER}
        for store in self.stores.values():
            grouped[store.kind].append(store)
        return {kind: stores for kind, stores in grouped.items() if stores}

    def held_by(self, agent_id: str) -> list[IndexedStore]:
        """The stores an instance holds, in kind order."""
        rows = self.holdings.get(agent_id, {})
        held = [
            self.stores[row.module_id]
            for row in rows.values()
            if row.enabled and row.module_id in self.stores
        ]
        return sorted(held, key=lambda store: KIND_ORDER.index(store.kind))

    def store_of(self, agent_id: str, kind: ModuleKind) -> IndexedStore | None:
        row = self.holdings.get(agent_id, {}).get(kind)
        if row is None or not row.enabled:
            return None
        return self.stores.get(row.module_id)

    def offers_modules_tab(self) -> bool:
        """Whether any instance holds a module-backed capability (anything but history)."""
        return any(
            row.enabled and row.kind != ModuleKind.HISTORY
            for rows in self.holdings.values()
            for row in rows.values()
        )

    def has_board(self) -> bool:
        return any(store.kind == ModuleKind.BOARD for store in self.stores.values())


def fold_modules(records: Iterable[Mapping[str, Any]], agents: Iterable[str] = ()) -> ModuleIndex:
    """The index of every store the records name; `agents` are the run's instances, in order."""
    index = ModuleIndex()
    made: set[str] = set()  # ids a copied or initialized row created
    for record in records_of(records):
        agent, kind = record.agent_id, record.type
        if kind == AgentEvent.AGENT_MODULES:
            _roster(index, agent, record, made)
        elif kind == AgentEvent.AGENT_TRANSITION:
            _transition(index, agent, record, made)
        elif kind in SNAPSHOT_KIND:
            _snapshot(index, agent, SNAPSHOT_KIND[kind], record)
        elif kind == ModuleEvent.MEMORY_REVISION:
            _revision(index, agent, record)
    if not index.rosters_reported:
        _infer_windows(index, agents)
    return index


def _roster(index: ModuleIndex, agent: str, record: Mapping[str, Any], made: set[str]) -> None:
    index.rosters_reported = True
    rows: dict[ModuleKind, Holding] = {}
    for raw in list_of(record.get("modules")):
        row = _holding(dict_of(raw))
        if row is None:
            continue
        rows[row.kind] = row
        if not row.enabled or not row.module_id:
            continue
        store = _store(index, row.module_id, row.kind)
        if not store.holders and row.module_id not in made and not _has(store, CREATED):
            store.lifetime.append(LifeEvent(CREATED, agent))
        if store.holder(agent) is None:
            store.holders.append(IndexedHolder(agent, row.origin, row.scope, row.writable))
    index.holdings[agent] = rows


def _holding(row: Mapping[str, Any]) -> Holding | None:
    try:
        kind = ModuleKind(str(row.get("kind")))
    except ValueError:
        return None
    scope = row.get("scope")
    return Holding(
        kind=kind,
        module_id=str(row.get("moduleId") or ""),
        enabled=bool(row.get("enabled", True)),
        origin=str(row.get("origin") or ""),
        scope=str(scope) if scope else None,
        writable=bool(row.get("writable", True)),
    )


def _transition(index: ModuleIndex, agent: str, record: Mapping[str, Any], made: set[str]) -> None:
    succession = str(record.get("kind") or "")
    successor = str(record.get("toAgentId") or "") or None
    for raw in list_of(record.get("modules")):
        row = dict_of(raw)
        try:
            kind = ModuleKind(str(row.get("kind")))
        except ValueError:
            continue
        disposition = str(row.get("disposition") or "")
        source = str(row.get("from") or "") or None
        target = str(row.get("to") or "") or None
        _apply(index, made, disposition, _Move(agent, successor, succession, kind, source, target))


@dataclass(frozen=True)
class _Move:
    """One row of an `agent_transition`: who made it, into whom, by which succession."""

    agent: str
    successor: str | None
    succession: str
    kind: ModuleKind
    source: str | None
    target: str | None

    def event(self, what: str, other_id: str | None = None) -> LifeEvent:
        return LifeEvent(what, self.agent, self.successor, self.succession, other_id)


def _apply(index: ModuleIndex, made: set[str], disposition: str, move: _Move) -> None:
    source, target = move.source, move.target
    if disposition == Disposition.CARRIED and source:
        rebound = target if target and target != source else None
        _release(index, move, source, move.event("carried", rebound))
        if rebound:
            _store(index, rebound, move.kind).lifetime.append(move.event("carried", source))
            made.add(rebound)
    elif disposition == Disposition.COPIED and target:
        _store(index, target, move.kind).lifetime.append(move.event("copied", source))
        made.add(target)
    elif disposition == Disposition.LINKED and (target or source):
        _store(index, target or source or "", move.kind).lifetime.append(move.event("linked"))
    elif disposition == Disposition.DROPPED and source:
        _release(index, move, source, move.event("dropped"))
    elif disposition == Disposition.INITIALIZED:
        if source:
            _release(index, move, source, move.event(RELEASED, target))
        if target:
            fresh = LifeEvent(CREATED, move.successor or move.agent, None, move.succession)
            _store(index, target, move.kind).lifetime.append(fresh)
            made.add(target)


def _release(index: ModuleIndex, move: _Move, module_id: str, event: LifeEvent) -> None:
    store = _store(index, module_id, move.kind)
    store.lifetime.append(event)
    store.released_by.add(move.agent)


def _snapshot(index: ModuleIndex, agent: str, kind: ModuleKind, record: Mapping[str, Any]) -> None:
    module_id = str(record.get("moduleId") or "")
    if not module_id:
        module_id = f"{LEGACY_PREFIX}{agent}:{kind.value}"
    store = _store(index, module_id, kind)
    if module_id.startswith(LEGACY_PREFIX):
        store.inferred = True
        if store.holder(agent) is None:
            store.holders.append(IndexedHolder(agent, Origin.CREATED))
    store.snapshot = dict(record)
    store.snapshot_agent = agent
    store.written = store.written or not snapshot_is_empty(kind, record)


def _revision(index: ModuleIndex, agent: str, record: Mapping[str, Any]) -> None:
    """A memory's revision: the store's text of that memory as of it (none once deleted)."""
    store = index.store_of(agent, ModuleKind.MEMORIES)
    if store is None:
        return
    store.revisions += 1
    store.written = True
    name, body = str(record.get("name", "")), record.get("body")
    if isinstance(body, str) and body:
        store.bodies[name] = body
    else:
        store.bodies.pop(name, None)


def _infer_windows(index: ModuleIndex, agents: Iterable[str]) -> None:
    for agent in agents:
        module_id = f"{LEGACY_PREFIX}{agent}:{ModuleKind.HISTORY.value}"
        store = _store(index, module_id, ModuleKind.HISTORY)
        store.inferred = True
        store.holders.append(IndexedHolder(agent, Origin.CREATED))
        store.lifetime.append(LifeEvent(CREATED, agent))
        index.holdings.setdefault(agent, {})[ModuleKind.HISTORY] = Holding(
            ModuleKind.HISTORY, module_id, True, Origin.CREATED, None, True
        )


def _store(index: ModuleIndex, module_id: str, kind: ModuleKind) -> IndexedStore:
    store = index.stores.get(module_id)
    if store is None:
        store = index.stores[module_id] = IndexedStore(module_id, kind)
    return store


def _has(store: IndexedStore, what: str) -> bool:
    return any(event.what == what for event in store.lifetime)


def snapshot_is_empty(kind: ModuleKind, snapshot: Mapping[str, Any]) -> bool:
    """Whether a snapshot holds nothing: no memories, tasks, epics or issues, skills read, entries."""
    match kind:
        case ModuleKind.MEMORIES:
            return not list_of(snapshot.get("memories"))
        case ModuleKind.TASKS:
            return not list_of(snapshot.get("tasks"))
        case ModuleKind.BOARD:
            return not list_of(snapshot.get("epics")) and not list_of(snapshot.get("issues"))
        case ModuleKind.SKILLS:
            return not any(dict_of(skill).get("read") for skill in list_of(snapshot.get("skills")))
        case ModuleKind.ARCHIVE:
            return not list_of(snapshot.get("entries"))
        case ModuleKind.HISTORY:
            return False
