"""Agent ids and what they name (seed 003's agent tree, spelled once for every floor of gg).

Agent ids are deterministic: the same run makes the same ids whatever its threads' timing.
- An agent (a lineage: one scheduler slot, one return value) is named by its first incarnation's
  id. The root is `root` (`ROOT_ID`).
- The n-th subagent a lineage spawns is `<lineage>.<n>`; its n-th fork's copy is `<lineage>.f<n>`
  (each counted from 1, across every incarnation of the lineage, in the order of the calls).
- An exec or a machine's move makes a new incarnation of the same lineage: `<lineage>@<k>` for
  its k-th incarnation (from 2), parented to the one before it, at the same depth.
So `root.2.f1@2` is the second incarnation of the first fork of the root's second subagent.
`is_agent_id` tells whether a text has that shape (`root`, `root.1`, `root.1.f1`, `root@2`); an
`AgentNode` is one instance's place: its id, profile, parent, depth, lineage and incarnation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT_ID = "root"
_AGENT_ID = re.compile(r"root(?:\.f?[1-9][0-9]*)*(?:@(?:[2-9]|[1-9][0-9]+))?")


def is_agent_id(text: str) -> bool:
    """Whether `text` is of the shape an agent id has: the root, then a subagent's `.<n>` or a
    fork copy's `.f<n>` per level (each from 1), then a later incarnation's `@<k>` (from 2)."""
    return _AGENT_ID.fullmatch(text) is not None


def child_id(lineage: str, mark: str, number: int) -> str:
    """The id of `lineage`'s `number`-th subagent (`mark` empty) or fork copy (`mark` `f`)."""
    return f"{lineage}.{mark}{number}"


def incarnation_id(lineage: str, number: int) -> str:
    """The id of `lineage`'s `number`-th incarnation (from 2)."""
    return f"{lineage}@{number}"


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
