"""The run's agent tree: every agent instance, who made it, how deep it stands, and its id, minted
by the rules of `gg.ids` (deterministic whatever the threads' timing). Safe to use from several
agent threads.
"""

from __future__ import annotations

import threading
from collections import Counter

from gg.errors import FatalFault, GgDefect
from gg.ids import ROOT_ID, AgentNode, child_id, incarnation_id


class AgentTree:
    def __init__(self) -> None:
        self._nodes: dict[str, AgentNode] = {}
        self._counts = Counter[tuple[str, str]]()  # (lineage, "spawn" | "fork") -> calls so far
        self._lock = threading.Lock()

    def open_root(self, profile: str) -> AgentNode:
        """The run's root agent, running `profile`; a run has one."""
        with self._lock:
            if ROOT_ID in self._nodes:
                raise GgDefect(FatalFault.HOST_FAULT, "the run's root agent was opened twice")
            return self._join(AgentNode(ROOT_ID, profile, lineage=ROOT_ID))

    def spawn(self, parent: AgentNode, profile: str) -> AgentNode:
        """A new subagent of `parent`'s lineage, one level deeper."""
        with self._lock:
            child = self._next(parent.lineage, "spawn", "")
            return self._join(AgentNode(child, profile, parent.id, parent.depth + 1, child))

    def reserve_fork(self, parent: AgentNode) -> str:
        """The id of `parent`'s next fork copy, real at once; the copy joins at `open_fork`."""
        with self._lock:
            return self._next(parent.lineage, "fork", "f")

    def open_fork(self, copy_id: str, parent: AgentNode) -> AgentNode:
        """The copy reserved as `copy_id`: `parent`'s profile, one level deeper."""
        with self._lock:
            return self._join(AgentNode(copy_id, parent.profile, parent.id, parent.depth + 1, copy_id))

    def succeed(self, predecessor: AgentNode, profile: str) -> AgentNode:
        """The next incarnation of `predecessor`'s lineage, running `profile`."""
        with self._lock:
            number = predecessor.incarnation + 1
            node_id = incarnation_id(predecessor.lineage, number)
            node = AgentNode(node_id, profile, predecessor.id, predecessor.depth, predecessor.lineage, number)
            return self._join(node)

    def get(self, agent_id: str) -> AgentNode | None:
        with self._lock:
            return self._nodes.get(agent_id)

    def nodes(self) -> list[AgentNode]:
        """Every agent instance of the run, in the order it joined."""
        with self._lock:
            return list(self._nodes.values())

    def _next(self, lineage: str, kind: str, mark: str) -> str:
        self._counts[(lineage, kind)] += 1
        return child_id(lineage, mark, self._counts[(lineage, kind)])

    def _join(self, node: AgentNode) -> AgentNode:
        if node.id in self._nodes:
            raise GgDefect(FatalFault.HOST_FAULT, f"agent id {node.id} was minted twice")
        self._nodes[node.id] = node
        return node
