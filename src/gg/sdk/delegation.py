"""Successions and forks, as deferred declarations (seed 001): `exec` and `transitionState` share
one slot per turn (the first stands, a second is refused), forks accumulate. The successions
themselves come with the modules work; until an agent's profile can enable `delegation`, the
membrane's gate answers these calls `unavailable`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ApiError, ErrorCode
from gg.sdk.registry import Capability, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope, Succession

CAPABILITY = "delegation"


def _exec(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    agent: str = args["agent"]
    if not agent.strip():
        raise ApiError("exec", ErrorCode.INVALID_ARGUMENT, "`agent` must name a profile")
    scope.deferred.succeed(Succession("exec", agent, args.get("prompt")), "exec")


def _transition_state(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    state: str = args["state"]
    if not state.strip():
        raise ApiError("transition_state", ErrorCode.INVALID_ARGUMENT, "`state` must name a state")
    scope.deferred.succeed(Succession("transition", state, args.get("note")), "transition_state")


def _fork(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    prompt: str = args["prompt"]
    if not prompt.strip():
        raise ApiError("fork", ErrorCode.INVALID_ARGUMENT, "`prompt` must not be blank")
    index = scope.deferred.fork(prompt)
    return {"id": f"{scope.agent_id}-fork-{scope.turn}-{index + 1}"}


DELEGATION_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="delegation",
        key="exec",
        params=(
            Param("agent", ParamType.STRING, doc="the profile that takes over"),
            Param("prompt", ParamType.STRING, required=False, positional=True, doc="its opening brief"),
        ),
        returns="void",
        summary="Hand this session to another profile once this turn ends.",
        gate=Capability(CAPABILITY),
        handler=_exec,
        dispatches_tool=False,
    ),
    Operation(
        family="delegation",
        key="transition_state",
        params=(
            Param("state", ParamType.STRING, doc="the state to move to"),
            Param("note", ParamType.STRING, required=False, positional=True, doc="a note for the next state"),
        ),
        returns="void",
        summary="Move to another state of the machine once this turn ends.",
        gate=Capability(CAPABILITY),
        handler=_transition_state,
        dispatches_tool=False,
    ),
    Operation(
        family="delegation",
        key="fork",
        params=(Param("prompt", ParamType.STRING, doc="the brief the copy starts from"),),
        returns="SubagentHandle",
        summary="Start a copy of this agent once this turn ends.",
        gate=Capability(CAPABILITY),
        handler=_fork,
        dispatches_tool=False,
    ),
)
