"""The agent tree's events: `agent_spawned` opens every instance (the root, each subagent, fork copy
and successor), `agent_modules` states its roster once, `fsm_state` the state it stands in when a
machine runs it; `agent_transition` (on the outgoing stream) records an exec, a fork or a machine's
move with what it did to each module kind; `agent_finished` closes an agent's last incarnation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from gg.telemetry.events import EventType, Payload, wire_fields


class TransitionKind(StrEnum):
    """How an agent made another (`agent_transition.kind`): an exec or a machine's move hands the
    session on, a fork starts a copy beside it."""

    EXEC = "exec"
    FORK = "fork"
    FSM = "fsm"


@dataclass(frozen=True, kw_only=True)
class AgentSpawned(Payload):
    """An agent instance opens: the profile it runs, its model, its depth (the root at 0), the
    brief it was given (a spawn's or fork's prompt, an exec's prompt, a machine move's note), the
    arm its programs are written in (`language`), the operations it may call (`offered`, wire keys
    in registry order) and those its profile's `disabledOperations` withholds (`withheld`, empty
    when none; a withheld one no capability of it offers is listed too)."""

    TYPE: ClassVar[EventType] = EventType.AGENT_SPAWNED
    profile_id: str
    model_id: str
    depth: int
    brief: str | None = None
    language: str | None = None
    offered: list[str] | None = None
    withheld: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class AgentModules(Payload):
    """The instance's roster, once: one row per module kind, in kind order."""

    TYPE: ClassVar[EventType] = EventType.AGENT_MODULES
    modules: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class AgentTransition(Payload):
    """An exec, fork or machine move made `to_agent_id`, running `profile_id` (in `state`, for a
    machine); `modules` holds what it did to each kind (`{kind, disposition, from?, to?}`), and
    `library` what it did to the program library, which is not a module (`{disposition, held,
    dropped}`: the programs the new holder keeps, and those of the old it does not)."""

    TYPE: ClassVar[EventType] = EventType.AGENT_TRANSITION
    kind: str
    to_agent_id: str
    profile_id: str
    modules: list[dict[str, Any]]
    library: dict[str, Any]
    state: str | None = None


@dataclass(frozen=True, kw_only=True)
class FsmStateEntered(Payload):
    """The instance stands in `state` of machine `fsm_id`, run by `profile_id`; `from_state` (on
    the wire `from`) is the state it moved from, absent at the machine's entry."""

    TYPE: ClassVar[EventType] = EventType.FSM_STATE
    fsm_id: str
    state: str
    profile_id: str
    from_state: str | None = None

    def to_wire(self) -> dict[str, Any]:
        wire = wire_fields(self)
        if "fromState" in wire:
            wire["from"] = wire.pop("fromState")
        return wire


@dataclass(frozen=True, kw_only=True)
class AgentFinished(Payload):
    """An agent's last incarnation ended: how (a `SubagentResult` status) and its final word."""

    TYPE: ClassVar[EventType] = EventType.AGENT_FINISHED
    status: str
    summary: str | None = None
