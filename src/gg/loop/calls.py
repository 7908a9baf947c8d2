"""Reading a reply's calls (seed 001, "The submission gg accepts").

Each call is one of three things, decided here and nowhere else:
- a `Submission`: a `submit_program` call whose `program` is a string, taken exactly as sent;
- an `Unrunnable` submission: a `submit_program` call with no `program` string (nothing runs);
- a `StrayCall`: a call to a tool this mode does not offer (never dispatched).
Every call gets exactly one receipt; its wording lives in `prompts/`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gg import prompts
from gg.providers.base import SUBMIT_PROGRAM, ToolCall, arguments_value


@dataclass(frozen=True)
class Submission:
    """A program to run; `program_id` is its library id once acknowledged (None without a library)."""

    call_id: str
    program: str
    program_id: str | None = None


@dataclass(frozen=True)
class Unrunnable:
    """A `submit_program` call that carried no program string: its receipt is the reason."""

    call_id: str
    reason: str


@dataclass(frozen=True)
class StrayCall:
    call_id: str
    name: str
    reason: str


CallClass = Submission | Unrunnable | StrayCall


def classify(call: ToolCall) -> CallClass:
    if call.name != SUBMIT_PROGRAM:
        return StrayCall(call.id, call.name, prompts.render("receipt-stray", name=call.name[:80]))
    arguments = _as_object(call.arguments)
    if arguments is None:
        return Unrunnable(call.id, prompts.render("receipt-unreadable-arguments"))
    if "program" not in arguments:
        return Unrunnable(call.id, prompts.render("receipt-no-program"))
    program = arguments["program"]
    if not isinstance(program, str):
        return Unrunnable(call.id, prompts.render("receipt-not-a-string", found=_json_kind(program)))
    return Submission(call.id, program)


def _as_object(arguments: str | dict[str, Any]) -> dict[str, Any] | None:
    value = arguments_value(arguments)
    return value if isinstance(value, dict) else None


def _json_kind(value: Any) -> str:
    match value:
        case None:
            return "null"
        case bool():
            return "a boolean"
        case int() | float():
            return "a number"
        case list():
            return "an array"
        case dict():
            return "an object"
        case _:
            return type(value).__name__
