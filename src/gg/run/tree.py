"""The run's agent tree: every agent instance, who spawned it and how deep it stands.

Agent ids are minted here, deterministically: the root is `root`. Only the root exists so far;
subagents, forks and successors join the tree under their parent.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from gg.errors import FatalFault, GgDefect

ROOT_ID = "root"


@dataclass(frozen=True)
class AgentNode:
    """One agent instance: its id, the profile it runs (slug), its parent and its depth (root 0)."""

    id: str
    profile: str
    parent: str | None = None
    depth: int = 0


class AgentTree:
    def __init__(self) -> None:
        self._nodes: dict[str, AgentNode] = {}
        self._lock = threading.Lock()

    def open_root(self, profile: str) -> AgentNode:
        """The run's root agent, running `profile`; a run has one."""
        with self._lock:
            if ROOT_ID in self._nodes:
                raise GgDefect(FatalFault.HOST_FAULT, "the run's root agent was opened twice")
            node = AgentNode(ROOT_ID, profile)
            self._nodes[node.id] = node
            return node

    def get(self, agent_id: str) -> AgentNode | None:
        with self._lock:
            return self._nodes.get(agent_id)

    def nodes(self) -> list[AgentNode]:
        """Every agent of the run, in the order it joined."""
        with self._lock:
            return list(self._nodes.values())
