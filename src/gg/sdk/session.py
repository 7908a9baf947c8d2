"""The ending calls (seed 001, "Ending a session").

Both groups are declared for every agent; the membrane's role gate accepts only the agent's own
group, before any argument is looked at. An ending sets a flag in the program's declarations and
returns: the statements after it run, the last call wins, and the loop reads the flag once the
program is over (an uncaught throw or a ceiling revokes it there). A final word is bounded like
every summary (`gg.sdk.summary`). A refusal names a call as the program's arm spells it. An
ending fires the `agent-stop` hooks first; one that blocks refuses the call (nothing declared).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg import prompts
from gg.config.catalogue import Role
from gg.config.hooks import HookEvent
from gg.errors import ErrorCode, OperationError
from gg.sdk.hooks import fire
from gg.sdk.registry import Ending, Operation, Param, ParamType
from gg.sdk.scope import DeclaredEnding, ProgramScope
from gg.sdk.summary import check_summary

FAMILY = "session"
APPROVED_TEXT = "Approved."


def _finish(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    summary: str = args["summary"]
    if not summary.strip():
        raise OperationError(
            "finish",
            ErrorCode.INVALID_ARGUMENT,
            "`summary` is blank, so nothing was declared: the session is not over",
        )
    check_summary("finish", "summary", summary)
    _declare(scope, DeclaredEnding("finish", summary))


def _approve(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    _declare(scope, DeclaredEnding("approve", APPROVED_TEXT))


def _request_changes(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    items = [item.strip() for item in args["items"] if item.strip()]
    if not items:
        spell = scope.spelling("request_changes")
        approve = spell(f"{FAMILY}.approve")
        no_change = prompts.render("session-no-changes", items=spell.argument("items"), approve=approve)
        raise OperationError("request_changes", ErrorCode.INVALID_ARGUMENT, no_change)
    numbered = "\n".join(f"{n}. {item}" for n, item in enumerate(items, start=1))
    check_summary("request_changes", "items", numbered)
    _declare(scope, DeclaredEnding("request_changes", f"Changes requested:\n{numbered}", tuple(items)))


def _declare(scope: ProgramScope, ending: DeclaredEnding) -> None:
    """The agent tries to end: `agent-stop` fires first, and a block leaves nothing declared."""
    fields = {"call": ending.kind, "finalText": ending.final_text}
    fire(scope.hooks, ending.kind, HookEvent.AGENT_STOP, fields)
    scope.declarations.declare_ending(ending)


SESSION_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family=FAMILY,
        key="finish",
        params=(
            Param(
                "summary",
                ParamType.STRING,
                doc="the session's final word: what was done",
                checked_by_sdk=True,
            ),
        ),
        returns="void",
        summary="End the session once this program ends, with `summary` as its final word.",
        gate=Ending(Role.STANDARD),
        handler=_finish,
        dispatches_tool=False,
    ),
    Operation(
        family=FAMILY,
        key="approve",
        params=(),
        returns="void",
        summary="End a review session approving the work.",
        gate=Ending(Role.REVIEW),
        handler=_approve,
        dispatches_tool=False,
    ),
    Operation(
        family=FAMILY,
        key="request_changes",
        params=(Param("items", ParamType.STRING_LIST, doc="the changes wanted, one per item"),),
        returns="void",
        summary="End a review session asking for the listed changes.",
        gate=Ending(Role.REVIEW),
        handler=_request_changes,
        dispatches_tool=False,
    ),
)
