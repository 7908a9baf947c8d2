"""The run's agent tree: every agent instance, who made it, how deep it stands, and its id.

Agent ids are deterministic: the same run makes the same ids whatever its threads' timing.
- An agent (a lineage: one scheduler slot, one return value) is named by its first incarnation's
  id. The root is `root`.
- The n-th subagent a lineage spawns is `<lineage>.<n>`; its n-th fork's copy is `<lineage>.f<n>`
  (each counted from 1, across every incarnation of the lineage, in the order of the calls).
- An exec or a machine's move makes a new incarnation of the same lineage: `<lineage>@<k>` for
  its k-th incarnation (from 2), parented to the one before it, at the same depth.
So `root.2.f1@2` is the second incarnation of the first fork of the root's second subagent.
`is_agent_id` tells whether a text has that shape (`root`, `root.1`, `root.1.f1`, `root@2`).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass

from gg.errors import FatalFault, GgDefect

ROOT_ID = "root"
_AGENT_ID = re.compile(r"root(?:\.f?[1-9][0-9]*)*(?:@(?:[2-9]|[1-9][0-9]+))?")


def is_agent_id(text: str) -> bool:
    """Whether `text` is of the shape an agent id has: the root, then a subagent's `.<n>` or a
    fork copy's `.f<n>` per level (each from 1), then a later incarnation's `@<k>` (from 2)."""
    return _AGENT_ID.fullmatch(text) is not None


@dataclass(frozen=True)
class AgentNode:
    """One agent instance: its id, the profile it runs (slug), its parent, its depth (root 0), its
    lineage's id and which incarnation of it it is (from 1)."""

    id: str
    profile: str
    parent: str | None = None
    depth: int = 0
    lineage: str = ROOT_ID
    incarnation: int = 1


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
            node_id = f"{predecessor.lineage}@{number}"
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
        return f"{lineage}.{mark}{self._counts[(lineage, kind)]}"

    def _join(self, node: AgentNode) -> AgentNode:
        if node.id in self._nodes:
            raise GgDefect(FatalFault.HOST_FAULT, f"agent id {node.id} was minted twice")
        self._nodes[node.id] = node
        return node
