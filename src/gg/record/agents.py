"""The agent tree of a run, folded from its events. Pure.

Rules:
- Every agent id seen on an event is an instance. `agent_spawned` (on the new instance's own
  stream) names its parent (`parentAgentId`), profile, model, depth and brief, and what it was
  offered and withheld (`offered`, `withheld`; None when the record does not say).
- `agent_transition` (on the outgoing stream) names the instance it made (`toAgentId`): an
  `exec` or `fsm` successor hangs directly off its predecessor, a `fork` copy is its subagent.
  Any other spawned instance is a subagent of its parent.
- An instance's status is its `agent_finished` status; else the run's ending for the root's last
  incarnation; else `running` while the run is, `stopped` once it ended without one.
- A run with no spawn events is one root agent, as every run was before many agents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gg.ids import ROOT_ID
from gg.record.envelope import Record, records_of
from gg.record.records import int_of
from gg.telemetry.agent_events import TransitionKind
from gg.telemetry.events import EventType

RUNNING = "running"
STOPPED = "stopped"
HANDED_OVER = "handed over"


@dataclass(frozen=True)
class RecordedInstance:
    """One agent instance (one incarnation)."""

    id: str
    parent: str | None = None
    relation: str = "root"  # root | subagent | fork | exec | fsm
    profile: str = ""
    model: str = ""
    depth: int = 0
    brief: str | None = None
    state: str | None = None  # its FSM state, when a machine runs it
    status: str = RUNNING
    summary: str | None = None
    successors: tuple[str, ...] = ()
    subagents: tuple[str, ...] = ()
    transition: Record | None = None  # the agent_transition that made it
    first_seen: int = 0
    offered: tuple[str, ...] | None = None  # the operations it might call (None: not recorded)
    withheld: tuple[str, ...] | None = None  # those its profile's ablation withheld


@dataclass(frozen=True)
class RecordedTree:
    root: str
    instances: dict[str, RecordedInstance] = field(default_factory=dict[str, RecordedInstance])

    def ordered(self) -> list[RecordedInstance]:
        """Depth first from each top: an instance, then its successors, then its subagents."""
        out: list[RecordedInstance] = []
        seen: set[str] = set()
        for top in self.tops():
            stack = [top]
            while stack:
                current = stack.pop()
                if current in seen or current not in self.instances:
                    continue
                seen.add(current)
                instance = self.instances[current]
                out.append(instance)
                stack.extend(reversed((*instance.successors, *instance.subagents)))
        out.extend(i for i in self.instances.values() if i.id not in seen)
        return out

    def tops(self) -> list[str]:
        """The root, then every instance with no known parent (a board's dispatches among them)."""
        orphans = [
            i.id
            for i in self.instances.values()
            if i.id != self.root and (i.parent is None or i.parent not in self.instances)
        ]
        return [self.root, *orphans] if self.root in self.instances else orphans

    def lineage(self, agent_id: str) -> set[str]:
        """An instance and every instance above it: the folders open to show it."""
        out: set[str] = set()
        current: str | None = agent_id
        while current is not None and current in self.instances and current not in out:
            out.add(current)
            current = self.instances[current].parent
        return out

    def profiles(self) -> dict[str, list[RecordedInstance]]:
        grouped: dict[str, list[RecordedInstance]] = {}
        for instance in self.ordered():
            grouped.setdefault(instance.profile, []).append(instance)
        return grouped


def fold_agents(records: Iterable[Mapping[str, Any]], run_status: str | None) -> RecordedTree:
    """The tree of every instance the records name; `run_status` None while the run runs."""
    instances: dict[str, RecordedInstance] = {}
    made_by: dict[str, tuple[str, Record]] = {}
    for position, record in enumerate(records_of(records)):
        agent = record.agent_id or ROOT_ID
        if agent not in instances:
            instances[agent] = RecordedInstance(agent, first_seen=position)
        _fold_record(instances, made_by, agent, record)
    root = ROOT_ID if ROOT_ID in instances else next(iter(instances), ROOT_ID)
    linked = _link(instances, made_by, root)
    return RecordedTree(root, _statuses(linked, root, run_status))


def _fold_record(
    instances: dict[str, RecordedInstance],
    made_by: dict[str, tuple[str, Record]],
    agent: str,
    record: Record,
) -> None:
    kind = record.type
    current = instances[agent]
    if kind == EventType.AGENT_SPAWNED:
        parent = record.parent_agent_id
        instances[agent] = replace(
            current,
            parent=parent or current.parent,
            profile=str(record.get("profileId") or current.profile),
            model=str(record.get("modelId") or current.model),
            depth=int_of(record.get("depth")),
            brief=record.get("brief") if isinstance(record.get("brief"), str) else current.brief,
            relation="subagent" if parent and current.relation == "root" else current.relation,
            offered=_names(record.get("offered")),
            withheld=_names(record.get("withheld")),
        )
    elif kind == EventType.AGENT_TRANSITION:
        target = str(record.get("toAgentId") or "")
        if target:
            made_by[target] = (agent, record)
    elif kind == EventType.FSM_STATE:
        instances[agent] = replace(current, state=str(record.get("state") or "") or None)
    elif kind == EventType.AGENT_FINISHED:
        summary = record.get("summary")
        instances[agent] = replace(
            current,
            status=str(record.get("status") or current.status),
            summary=summary if isinstance(summary, str) else current.summary,
        )
    elif kind == EventType.RUN_STARTED and agent == ROOT_ID and not current.model:
        instances[agent] = replace(current, model=str(record.get("model") or ""))


def _names(value: object) -> tuple[str, ...] | None:
    """A recorded list of operation keys, or None when the record holds none."""
    if not isinstance(value, list):
        return None
    return tuple(str(item) for item in value)  # pyright: ignore[reportUnknownVariableType]


def _link(
    instances: dict[str, RecordedInstance], made_by: Mapping[str, tuple[str, Record]], root: str
) -> dict[str, RecordedInstance]:
    successors: dict[str, list[str]] = {}
    subagents: dict[str, list[str]] = {}
    linked = dict(instances)
    for instance in sorted(instances.values(), key=lambda i: i.first_seen):
        if instance.id == root and instance.id not in made_by:
            continue
        source = made_by.get(instance.id)
        if source is not None:
            parent, transition = source
            relation = str(transition.get("kind") or "subagent")
            profile = instance.profile or str(transition.get("profileId") or "")
            linked[instance.id] = replace(
                instance, parent=parent, relation=relation, profile=profile, transition=transition
            )
            bucket = subagents if relation == TransitionKind.FORK else successors
            bucket.setdefault(parent, []).append(instance.id)
        elif instance.parent and instance.parent in instances:
            subagents.setdefault(instance.parent, []).append(instance.id)
    for agent_id, instance in linked.items():
        linked[agent_id] = replace(
            instance,
            successors=tuple(successors.get(agent_id, ())),
            subagents=tuple(subagents.get(agent_id, ())),
            profile=instance.profile or (ROOT_ID if agent_id == root else ""),
        )
    return linked


def _statuses(
    instances: dict[str, RecordedInstance], root: str, run_status: str | None
) -> dict[str, RecordedInstance]:
    last = _last_incarnation(instances, root)
    out: dict[str, RecordedInstance] = {}
    for agent_id, instance in instances.items():
        status = instance.status
        if status == RUNNING and run_status is not None:
            status = _ended_status(instance, agent_id == last, run_status)
        out[agent_id] = replace(instance, status=status)
    return out


def _ended_status(instance: RecordedInstance, last: bool, run_status: str) -> str:
    """An instance that reported no ending, once the run ended."""
    if instance.successors:
        return HANDED_OVER
    return run_status if last else STOPPED


def _last_incarnation(instances: Mapping[str, RecordedInstance], root: str) -> str:
    current = root
    seen = {root}
    while current in instances and instances[current].successors:
        current = instances[current].successors[-1]
        if current in seen:
            break
        seen.add(current)
    return current
