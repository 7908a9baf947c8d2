"""`board.waitForIssue`: a deferred declaration (seed 001). A program names an issue to wait for;
the wait itself happens between turns, and waits accumulate over a reply, each issue once. The
board comes with the modules work; until a profile can enable `board`, the membrane's gate
answers this call `unavailable`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ApiError, ErrorCode
from gg.sdk.registry import Capability, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope

CAPABILITY = "board"


def _wait_for_issue(scope: ProgramScope, args: Mapping[str, Any]) -> str:
    issue: str = args["id"]
    if not issue.strip():
        raise ApiError("wait_for_issue", ErrorCode.INVALID_ARGUMENT, "`id` must name an issue")
    scope.deferred.wait_for(issue)
    return issue


BOARD_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="board",
        key="wait_for_issue",
        params=(Param("id", ParamType.STRING, doc="the issue to wait for, e.g. `AUTH-1`"),),
        returns="string",
        summary="Wait, between turns, until an issue is done.",
        gate=Capability(CAPABILITY),
        handler=_wait_for_issue,
        dispatches_tool=False,
    ),
)
