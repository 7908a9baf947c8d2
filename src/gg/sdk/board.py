"""The `board` family (capability `project-management`): the run's epics and issues, whose rules are
`gg.state.board.store`'s (the store) and `gg.state.board.handle`'s (what differs per agent).

- `createEpic({prefix, title, description})` → `EpicCreated {id, board}`;
- `createIssue({title, description?, inScope, outOfScope, completionCriteria, blockedBy?, epicId?,
  agent, reviewers?})` → `IssueCreated {id, board, wait()}`: gg dispatches the issue to an agent
  of the profile `agent` names;
- `updateIssue(id, {title?, description?, inScope?, outOfScope?, completionCriteria?, status?,
  epicId?})`: `null` clears `description` and `epicId`;
- `setIssueBlockedBy(id, blockedBy)`; `removeEpic(id)`, `removeIssue(id)` → `BoardUsage`;
- `waitForIssue(id)` is a deferred declaration (seed 001): the wait happens between turns, the
  waits of a reply accumulate, each issue once, and the call answers at once with the issue's id.
  A wait that could never end (the issue waits, through blockers and the agents at work, on the
  caller) is `conflict` naming the cycle, and so is a `setIssueBlockedBy` that would close one
  through a wait already declared (`gg.agents.waits`).
A refusal crosses as an `ApiError` under the call's key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.arguments import required
from gg.sdk.registry import Alias, Capability, ErrorDoc, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.board import SETTABLE, BoardHandle, IssuePatch, IssueStatus, NewIssue
from gg.state.items import KEEP
from gg.state.refusal import Refusal

CAPABILITY = "project-management"
T = TypeVar("T")


def _on_board(scope: ProgramScope, operation: str, call: Callable[[BoardHandle], T]) -> T:
    if scope.board is None:  # the gate admits only agents of a run that has a board
        raise GgDefect(FatalFault.HOST_FAULT, f"board.{operation} reached an agent without a board")
    try:
        return call(scope.board)
    except Refusal as refusal:
        raise refusal.at(operation, scope.spelling(operation)) from None


def _create_epic(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    prefix, title, description = (
        required(scope, args, name, "create_epic") for name in ("prefix", "title", "description")
    )
    return _on_board(scope, "create_epic", lambda board: board.create_epic(prefix, title, description))


def _create_issue(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    named = ("title", "in_scope", "out_of_scope", "completion_criteria", "agent")
    title, in_scope, out_of_scope, criteria, agent = (
        required(scope, args, name, "create_issue") for name in named
    )
    new = NewIssue(
        title,
        in_scope,
        out_of_scope,
        criteria,
        agent,
        description=args.get("description"),
        blocked_by=tuple(args.get("blockedBy", ())),
        epic_id=args.get("epicId"),
        reviewers=tuple(args.get("reviewers", ())),
        filed_by=scope.agent_id,
    )
    return _on_board(scope, "create_issue", lambda board: board.create_issue(new))


def _update_issue(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    status = args.get("status")
    if status is not None and status not in {member.value for member in SETTABLE}:
        choices = ", ".join(member.value for member in SETTABLE)
        raise OperationError("update_issue", ErrorCode.INVALID_ARGUMENT, f"`status` must be one of {choices}")
    patch = IssuePatch(
        title=args.get("title"),
        description=args.get("description", KEEP),
        in_scope=args.get("inScope"),
        out_of_scope=args.get("outOfScope"),
        completion_criteria=args.get("completionCriteria"),
        status=None if status is None else IssueStatus(status),
        epic_id=args.get("epicId", KEEP),
    )
    _on_board(scope, "update_issue", lambda board: board.update_issue(args["id"], patch))


def _set_issue_blocked_by(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    blocked_by = args["blockedBy"]
    if scope.delegation is not None:
        scope.delegation.check_blockers(args["id"], blocked_by)
    _on_board(scope, "set_issue_blocked_by", lambda board: board.set_issue_blocked_by(args["id"], blocked_by))


def _remove_epic(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, int]:
    return _on_board(scope, "remove_epic", lambda board: board.remove_epic(args["id"]))


def _remove_issue(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, int]:
    return _on_board(scope, "remove_issue", lambda board: board.remove_issue(args["id"]))


def _wait_for_issue(scope: ProgramScope, args: Mapping[str, Any]) -> str:
    issue: str = args["id"]
    if not issue.strip():
        raise OperationError("wait_for_issue", ErrorCode.INVALID_ARGUMENT, "`id` must name an issue")
    _on_board(scope, "wait_for_issue", lambda board: board.check_wait(issue))
    if scope.delegation is not None:
        scope.delegation.declare_issue_wait(issue)
    scope.deferred.wait_for(issue)
    return issue


def _text(name: str, doc: str) -> Param:
    return Param(name, ParamType.STRING, required=False, doc=doc)


_GATE = Capability(CAPABILITY)
_ID = Param("id", ParamType.STRING, doc="the issue's id, e.g. `AUTH-1`")
_NOT_FOUND = ErrorDoc(ErrorCode.NOT_FOUND, "no issue has that id")
_USAGE = "BoardUsage"

BOARD_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="board",
        key="create_epic",
        params=(
            _text("prefix", "3 to 6 letters; upper-cased, the epic's id and its issues' stem (required)"),
            _text("title", "one line naming the body of work (required)"),
            _text("description", "what the epic covers (required)"),
        ),
        returns="EpicCreated",
        summary="Create an epic to group issues under one prefix.",
        gate=_GATE,
        handler=_create_epic,
        errors=(
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the prefix is not 3 to 6 letters, or a field is blank"),
            ErrorDoc(ErrorCode.CONFLICT, "an epic already holds the prefix"),
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "the board holds its maximum of epics"),
        ),
    ),
    Operation(
        family="board",
        key="create_issue",
        params=(
            _text("title", "one line naming the work (required)"),
            _text("description", "the work, for an agent with no other context"),
            _text("in_scope", "what the issue covers (required)"),
            _text("out_of_scope", "what it deliberately leaves alone (required)"),
            _text("completion_criteria", "what must be true for it to be done (required)"),
            Param("blocked_by", ParamType.STRING_LIST, required=False, doc="issues that must be done first"),
            _text("epic_id", "the epic to group it under; without one it is numbered under ISSUE"),
            _text("agent", "the profile it is dispatched to, an implementer of your roster (required)"),
            Param(
                "reviewers", ParamType.STRING_LIST, required=False, doc="the profiles that must approve it"
            ),
        ),
        returns="IssueCreated",
        summary="File an issue; gg dispatches it to an agent once its blockers are done.",
        gate=_GATE,
        handler=_create_issue,
        aliases=(Alias("wait", "board.wait_for_issue", "id"),),
        errors=(
            ErrorDoc(
                ErrorCode.INVALID_ARGUMENT, "a field is missing or blank, or an agent is not yours to assign"
            ),
            ErrorDoc(ErrorCode.NOT_FOUND, "the epic or a blocker does not exist"),
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "the board holds its maximum of issues"),
        ),
    ),
    Operation(
        family="board",
        key="update_issue",
        params=(
            _ID,
            _text("title", "its new title"),
            Param(
                "description",
                ParamType.CLEARABLE_STRING,
                required=False,
                doc="its new description; null clears it",
            ),
            _text("in_scope", "what it now covers"),
            _text("out_of_scope", "what it now leaves alone"),
            _text("completion_criteria", "when it is now done"),
            _text("status", "open, in_progress or done"),
            Param(
                "epic_id",
                ParamType.CLEARABLE_STRING,
                required=False,
                doc="the epic to regroup it under; null ungroups it",
            ),
        ),
        returns="void",
        summary="Change an issue's fields or its status.",
        gate=_GATE,
        handler=_update_issue,
        errors=(
            _NOT_FOUND,
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "nothing to change, or a field is blank"),
            ErrorDoc(ErrorCode.CONFLICT, "`done` for an issue naming reviewers (done once they approve)"),
        ),
    ),
    Operation(
        family="board",
        key="set_issue_blocked_by",
        params=(
            _ID,
            Param("blocked_by", ParamType.STRING_LIST, doc="every issue it now waits on; [] for none"),
        ),
        returns="void",
        summary="Replace the issues an issue is blocked by.",
        gate=_GATE,
        handler=_set_issue_blocked_by,
        errors=(
            _NOT_FOUND,
            ErrorDoc(ErrorCode.CONFLICT, "the issue would wait on itself, or a cycle would close"),
        ),
    ),
    Operation(
        family="board",
        key="remove_epic",
        params=(Param("id", ParamType.STRING, doc="the epic's id"),),
        returns=_USAGE,
        summary="Remove an epic; its issues stay, ungrouped.",
        gate=_GATE,
        handler=_remove_epic,
        errors=(ErrorDoc(ErrorCode.NOT_FOUND, "no epic has that id"),),
    ),
    Operation(
        family="board",
        key="remove_issue",
        params=(_ID,),
        returns=_USAGE,
        summary="Remove an issue; no other issue waits on it any more.",
        gate=_GATE,
        handler=_remove_issue,
        errors=(_NOT_FOUND,),
    ),
    Operation(
        family="board",
        key="wait_for_issue",
        params=(Param("id", ParamType.STRING, doc="the issue to wait for, e.g. `AUTH-1`"),),
        returns="string",
        summary="Wait, between turns, until an issue is done or failed.",
        gate=_GATE,
        handler=_wait_for_issue,
        dispatches_tool=False,
        errors=(
            _NOT_FOUND,
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the id is blank, or names the issue you were given"),
            ErrorDoc(ErrorCode.CONFLICT, "the issue waits, through others, on you: the wait would never end"),
        ),
    ),
)
