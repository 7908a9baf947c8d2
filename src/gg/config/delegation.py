"""The capability-set models of the agent tree: a profile's roster, and the capabilities that start
or hand on agents (`subagents`, `exec`, `fork`) or run a state machine (`fsm`).

Shape rules enforced here (cross-field rules live in `roster.py` and `machines.py`):
- a roster entry names a profile (`agent`), says what it is for (`description`) and how it may
  be used (`scopes`: `subagent`, `implementer`, `reviewer`);
- `subagents.params.maxDepth` is a whole number of at least 1 (required when enabled, checked in
  `roster.py`): the deepest an agent of the run may stand, the root at 0;
- `exec` and `fork` take no params;
- `fsm.params.states` lists the machine's states, the first being its entry; a state names the
  profile that runs it (`agent`) and its outgoing edges (`transitions`, none for a terminal
  state); an edge names its target (`to`), the module kinds it carries (`transfer`; absent or
  empty carries nothing) and when to take it (`description`). A state's name and an edge's `to`
  are `Name`s: no control or bidi character.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gg.config.catalogue import CapabilityId, RosterScope
from gg.config.kinds import ModuleKind
from gg.config.part import Enabled, Part
from gg.config.values import Choice, Name, Text, Whole

__all__ = [
    "SLUG_PATTERN",
    "ExecCapability",
    "ForkCapability",
    "FsmCapability",
    "FsmParams",
    "FsmState",
    "FsmTransition",
    "RosterEntry",
    "Slug",
    "SubagentsCapability",
    "SubagentsParams",
]

SLUG_PATTERN = r"[a-z0-9]+(-[a-z0-9]+)*"
Slug = Annotated[
    str, Text(SLUG_PATTERN, "lowercase letters, digits and hyphens, in words joined by one hyphen", 64)
]
Description = Annotated[str, Text(described="what it is for", max_chars=2000)]


class RosterEntry(Part):
    """A profile this agent may start or hand on to, and how."""

    agent: Slug
    description: Description | None = None
    scopes: tuple[Annotated[RosterScope, Choice(RosterScope)], ...] = ()


class SubagentsParams(Part):
    max_depth: Annotated[int, Whole(1, what="a whole number of levels")] | None = None


class SubagentsCapability(Part):
    """`delegation.spawnSubagent`, `waitForSubagents`, `sendMessage`."""

    id: Literal[CapabilityId.SUBAGENTS]
    enabled: Enabled = True
    params: SubagentsParams = Field(default_factory=SubagentsParams)


class _NoParams(Part):
    pass


class ExecCapability(Part):
    """`delegation.exec`: hand the session to a `subagent`-scoped profile of the roster."""

    id: Literal[CapabilityId.EXEC]
    enabled: Enabled = True
    params: _NoParams = Field(default_factory=_NoParams)


class ForkCapability(Part):
    """`delegation.fork`: start a copy of this agent."""

    id: Literal[CapabilityId.FORK]
    enabled: Enabled = True
    params: _NoParams = Field(default_factory=_NoParams)


class FsmTransition(Part):
    to: Annotated[str, Name(described="the state it leads to")]
    transfer: tuple[Annotated[ModuleKind, Choice(ModuleKind)], ...] | None = None
    description: Description | None = None

    @property
    def carried(self) -> frozenset[ModuleKind]:
        """The kinds the edge carries; an absent list carries nothing (a hard reset)."""
        return frozenset(self.transfer or ())


class FsmState(Part):
    name: Annotated[str, Name(described="the state's name")]
    agent: Slug
    transitions: tuple[FsmTransition, ...] = ()

    def edge(self, to: str) -> FsmTransition | None:
        return next((edge for edge in self.transitions if edge.to == to), None)


class FsmParams(Part):
    states: tuple[FsmState, ...] = Field(json_schema_extra={"minItems": 1})

    @property
    def entry(self) -> FsmState:
        return self.states[0]

    @property
    def terminals(self) -> tuple[str, ...]:
        """The states with no edge out, where the machine's work is done."""
        return tuple(state.name for state in self.states if not state.transitions)

    def state(self, name: str) -> FsmState | None:
        return next((state for state in self.states if state.name == name), None)


class FsmCapability(Part):
    """A state machine: the profile is a shell with no model, whose states other profiles run."""

    id: Literal[CapabilityId.FSM]
    enabled: Enabled = True
    params: FsmParams
