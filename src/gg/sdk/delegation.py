"""The delegation family (seed 001; anchor-arms §5): start, wait for and message subagents, hand the
session on (`exec`, a machine's `transitionState`), and fork a copy.

Rules kept here:
- `spawnSubagent({agent, prompt})` starts a child at once, on its own thread, and returns its
  handle `{id, slot, modelId, send(message)}`. `agent` must be a `subagent`-scoped entry of the
  roster (`invalid-argument` naming them otherwise); a child deeper than the run's `maxDepth` is
  `limit-exceeded`; `prompt` is the child's brief, its profile's task when left out. A brief is a
  prompt or a board issue, never both (`invalid-argument`): `spawnSubagent({agent, issueId})`
  briefs the child with the issue and puts it to work on it (`gg.agents.issues`: `not-found`,
  `conflict` for an issue not open or held);
- `waitForSubagents(ids?)` blocks until the named children (every child not yet collected, when
  none are named) have ended, and returns one `SubagentResult` each, in the order named (or
  started). The wait is off the program's clock (`waits_externally`); the run's wall-clock budget
  ends it (`limit-exceeded`). A fork declared this turn is not a child until the turn ends; a
  wait on a child that waits, through others, on this agent is `conflict` (`gg.agents.waits`);
- `sendMessage(agentId, message)` puts the message in that child's next prompt: `not-found` for
  an agent that is not this one's child, `conflict` once the child has ended. A message is at most
  65,536 UTF-8 bytes, read like a view body (`invalid-argument` over it, never cut), and what one
  turn of the child is handed is bounded too (`gg.agents.lineages`: `limit-exceeded`);
- `exec(agent, prompt?)`, `transitionState(state, note?)` and `fork(prompt)` are declarations the
  loop applies when the turn closes (`DeferredDeclarations`): the first succession stands and a
  second is `refused`, a succession after this program's ending is `refused` (the ending wins),
  and every fork is dispatched. An unknown target is `invalid-argument` listing the legal ones. A
  fork's id is real at once; its depth is checked at the call;
- `transitionState` is bound only for an agent standing in a machine's state with edges out.
The run answers the calls that reach other agents through the program's `Delegation` port.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from gg import prompts
from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.registry import Alias, Capability, ErrorDoc, Machine, Operation, Param, ParamType
from gg.sdk.scope import ForkDeclaration, ProgramScope, Succession
from gg.sdk.summary import check_summary

SUBAGENTS, EXEC, FORK = "subagents", "exec", "fork"


class Delegation(Protocol):
    """What the run answers for one agent's programs."""

    @property
    def depth(self) -> int: ...

    @property
    def max_depth(self) -> int | None: ...

    def spawnable(self) -> Sequence[str]:
        """The profiles this agent may start or exec into: its roster's `subagent` entries."""
        ...

    def transitions(self) -> Sequence[str]:
        """The states its machine's edges lead to from where it stands (none outside a machine)."""
        ...

    def spawn(self, profile: str, prompt: str | None) -> dict[str, Any]: ...

    def spawn_on_issue(self, profile: str, issue: str) -> dict[str, Any]:
        """A child of `profile` briefed with board issue `issue` and put to work on it."""
        ...

    def wait(self, ids: Sequence[str] | None, pending: Sequence[str]) -> list[dict[str, Any]]: ...

    def send(self, agent_id: str, message: str) -> None: ...

    def reserve_fork(self) -> dict[str, Any]: ...

    def take_messages(self) -> list[tuple[str, str]]:
        """What was sent to this agent since its last turn: (sender, message), oldest first."""
        ...

    def declare_issue_wait(self, issue: str) -> None:
        """This agent will wait on board issue `issue` after its turn; raises `ApiError`
        (`conflict`, naming the cycle) when that wait could never end."""
        ...

    def check_blockers(self, issue: str, blockers: Sequence[str]) -> None:
        """Raises `ApiError` (`conflict`, naming the cycle) when blocking `issue` on `blockers`
        would leave a wait that could never end."""
        ...


def _port(scope: ProgramScope, operation: str) -> Delegation:
    if scope.delegation is None:  # the gates admit only agents the run gave a port
        raise GgDefect(FatalFault.HOST_FAULT, f"delegation.{operation} reached an agent without a port")
    return scope.delegation


def _listed(names: Sequence[str]) -> str:
    return ", ".join(f"`{name}`" for name in names) or "none"


def _checked_target(operation: str, name: str, legal: Sequence[str], what: str) -> str:
    if name.strip() and name in legal:
        return name
    shown = f"`{name[:60]}` is not one" if name.strip() else "none was named"
    raise OperationError(
        operation, ErrorCode.INVALID_ARGUMENT, f"{what} must be one of {_listed(legal)}; {shown}"
    )


def _check_depth(operation: str, port: Delegation) -> None:
    if port.max_depth is not None and port.depth + 1 > port.max_depth:
        raise OperationError(
            operation,
            ErrorCode.LIMIT_EXCEEDED,
            f"this agent stands at depth {port.depth}, and the run lets no agent stand deeper than "
            f"{port.max_depth}: it may start no child",
        )


def _refuse_after_an_ending(scope: ProgramScope, operation: str) -> None:
    if scope.declarations.ending is not None:
        raise OperationError(
            operation,
            ErrorCode.REFUSED,
            "this program already ended the session; an ending outranks a succession",
        )


def _spawn(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    port = _port(scope, "spawn_subagent")
    agent = _checked_target("spawn_subagent", args.get("agent", ""), port.spawnable(), "`agent`")
    _check_depth("spawn_subagent", port)
    prompt, issue = args.get("prompt"), args.get("issueId")
    if issue is None:
        return port.spawn(agent, prompt)
    if prompt is not None:
        spell = scope.spelling("spawn_subagent")
        both = prompts.render(
            "spawn-brief-both", prompt=spell.argument("prompt"), issue_id=spell.argument("issue_id")
        )
        raise OperationError("spawn_subagent", ErrorCode.INVALID_ARGUMENT, both)
    return port.spawn_on_issue(agent, issue)


def _wait(scope: ProgramScope, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    pending = [fork.id for fork in scope.deferred.forks]
    return _port(scope, "wait_for_subagents").wait(args.get("ids"), pending)


def _send(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    message: str = args["message"]
    if not message.strip():
        raise OperationError("send_message", ErrorCode.INVALID_ARGUMENT, "`message` must not be blank")
    check_summary("send_message", "message", message)
    _port(scope, "send_message").send(args["agentId"], message)


def _exec(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    _refuse_after_an_ending(scope, "exec")
    agent = _checked_target("exec", args["agent"], _port(scope, "exec").spawnable(), "`agent`")
    scope.deferred.succeed(Succession("exec", agent, args.get("prompt")), "exec")


def _transition_state(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    _refuse_after_an_ending(scope, "transition_state")
    legal = _port(scope, "transition_state").transitions()
    state = _checked_target("transition_state", args["state"], legal, "`state`")
    scope.deferred.succeed(Succession("transition", state, args.get("note")), "transition_state")


def _fork(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    prompt: str = args["prompt"]
    if not prompt.strip():
        raise OperationError("fork", ErrorCode.INVALID_ARGUMENT, "`prompt` must not be blank")
    port = _port(scope, "fork")
    _check_depth("fork", port)
    handle = port.reserve_fork()
    scope.deferred.fork(ForkDeclaration(str(handle["id"]), prompt, int(handle["slot"])))
    return handle


_HANDLE = "SubagentHandle"
_SEND = (Alias("send", "delegation.send_message", "id"),)

DELEGATION_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="delegation",
        key="spawn_subagent",
        params=(
            Param("agent", ParamType.STRING, required=False, doc="the profile to start (required)"),
            Param(
                "prompt", ParamType.STRING, required=False, doc="its brief; its profile's task when left out"
            ),
            Param(
                "issue_id",
                ParamType.STRING,
                required=False,
                doc="a board issue to brief it with and put it to work on, in place of `prompt`",
            ),
        ),
        returns=_HANDLE,
        summary="Start a subagent now, on its own thread, and get its handle.",
        gate=Capability(SUBAGENTS),
        handler=_spawn,
        aliases=_SEND,
        errors=(
            ErrorDoc(
                ErrorCode.INVALID_ARGUMENT,
                "`agent` is not a profile your roster lets you start, or a prompt and an issue both came",
            ),
            ErrorDoc(ErrorCode.NOT_FOUND, "the issue named is not on the run's board"),
            ErrorDoc(ErrorCode.CONFLICT, "the issue is not open, or an agent holds it"),
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "the child would stand deeper than the run's depth limit"),
        ),
    ),
    Operation(
        family="delegation",
        key="wait_for_subagents",
        params=(
            Param(
                "ids", ParamType.STRING_LIST, required=False, positional=True, doc="the children to wait for"
            ),
        ),
        returns="SubagentResult[]",
        summary="Wait until the named children (all not yet collected, when none are named) have ended.",
        gate=Capability(SUBAGENTS),
        handler=_wait,
        waits_externally=True,
        errors=(
            ErrorDoc(ErrorCode.NOT_FOUND, "an id names no child of this agent"),
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "an id names a fork that starts when this turn ends"),
            ErrorDoc(ErrorCode.CONFLICT, "a child waits, through others, on this agent: it would never end"),
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "the run's time ran out while waiting"),
        ),
    ),
    Operation(
        family="delegation",
        key="send_message",
        params=(
            Param("agent_id", ParamType.STRING, doc="the child's id"),
            Param(
                "message", ParamType.STRING, doc="what its next prompt carries, at most 65,536 UTF-8 bytes"
            ),
        ),
        returns="void",
        summary="Put a message in a child's next prompt.",
        gate=Capability(SUBAGENTS),
        handler=_send,
        errors=(
            ErrorDoc(ErrorCode.NOT_FOUND, "the id names no child of this agent"),
            ErrorDoc(ErrorCode.CONFLICT, "the child has already ended"),
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the message is blank, or over 65,536 UTF-8 bytes"),
            ErrorDoc(
                ErrorCode.LIMIT_EXCEEDED, "the child's next turn holds all the messages it may be handed"
            ),
        ),
    ),
    Operation(
        family="delegation",
        key="exec",
        params=(
            Param("agent", ParamType.STRING, doc="the profile that takes over"),
            Param("prompt", ParamType.STRING, required=False, positional=True, doc="its instructions"),
        ),
        returns="void",
        summary="Hand this session to another profile once this turn ends.",
        gate=Capability(EXEC),
        handler=_exec,
        dispatches_tool=False,
        errors=(
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "`agent` is not a profile your roster lets you become"),
            ErrorDoc(ErrorCode.REFUSED, "a succession was already declared this turn, or the session ended"),
        ),
    ),
    Operation(
        family="delegation",
        key="transition_state",
        params=(
            Param("state", ParamType.STRING, doc="the state to move to"),
            Param("note", ParamType.STRING, required=False, positional=True, doc="a note for the next state"),
        ),
        returns="void",
        summary="Move the machine to another state once this turn ends.",
        gate=Machine(),
        handler=_transition_state,
        dispatches_tool=False,
        errors=(
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "no edge leads from this state to `state`"),
            ErrorDoc(ErrorCode.REFUSED, "a succession was already declared this turn, or the session ended"),
        ),
    ),
    Operation(
        family="delegation",
        key="fork",
        params=(Param("prompt", ParamType.STRING, doc="what the copy is to do"),),
        returns=_HANDLE,
        summary="Start a copy of this agent once this turn ends; its id is real at once.",
        gate=Capability(FORK),
        handler=_fork,
        dispatches_tool=False,
        aliases=_SEND,
        errors=(
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "the copy would stand deeper than the run's depth limit"),
        ),
    ),
)
