"""Turn outcomes and the error taxonomy (seed 001, "Turn outcomes").

A turn produces exactly one outcome: `Finished`, `Continue` or `Fatal`. An error turn is a
`Continue` that carries an `ErrorType`; its base `ErrorKind` is never stored but read from one
total table, and `is_error` is the single definition of an error turn. A failure is named by one
line of its text (`failure_headline`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from gg.errors import FatalFault


class ErrorKind(StrEnum):
    MODEL_API = "model_api"
    TRANSPILE = "transpile"
    PROGRAM_FAULT = "program_fault"
    SANDBOX_LIMIT = "sandbox_limit"
    MISSING_COMPLETION = "missing_completion"


class ErrorType(StrEnum):
    MODEL_AUTH = "model_auth"
    MODEL_REJECTED = "model_rejected"
    MODEL_RETRY_EXHAUSTED = "model_retry_exhausted"
    MODEL_RESPONSE_LOOP = "model_response_loop"
    MODEL_PARSE = "model_parse"
    MODEL_TIMEOUT = "model_timeout"
    MODEL_LENGTH_CAPPED = "model_length_capped"
    TRANSPILE_SYNTAX = "transpile_syntax"
    TRANSPILE_COMPILE = "transpile_compile"
    TRANSPILE_UNSUPPORTED = "transpile_unsupported"
    PROGRAM_API_ERROR = "program_api_error"
    PROGRAM_UNKNOWN_NAME = "program_unknown_name"
    PROGRAM_THROW = "program_throw"
    SANDBOX_TIMEOUT = "sandbox_timeout"
    SANDBOX_OUT_OF_MEMORY = "sandbox_out_of_memory"
    SANDBOX_TRAP = "sandbox_trap"
    MISSING_COMPLETION_NO_CALL = "missing_completion_no_call"
    MISSING_COMPLETION_COMPACTION = "missing_completion_compaction"
    MISSING_COMPLETION_NO_PROGRAM = "missing_completion_no_program"

    @property
    def kind(self) -> ErrorKind:
        return _KIND_BY_PREFIX[self.value.split("_", 1)[0]]


_KIND_BY_PREFIX = {
    "model": ErrorKind.MODEL_API,
    "transpile": ErrorKind.TRANSPILE,
    "program": ErrorKind.PROGRAM_FAULT,
    "sandbox": ErrorKind.SANDBOX_LIMIT,
    "missing": ErrorKind.MISSING_COMPLETION,
}


@dataclass(frozen=True)
class Finished:
    """An ending survived: its text is the session's final word; `kind` is the ending call made
    (`finish`, `approve`, `request_changes`) and `items` a change list's items."""

    final_text: str
    kind: str = "finish"
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Continue:
    """The session goes on: feedback to push, the turn's error (if any), a report line."""

    feedback: tuple[str, ...] = ()
    error: ErrorType | None = None
    report: str = ""


@dataclass(frozen=True)
class Fatal:
    """gg's own failure: the model reads nothing and the run ends `internal_error`."""

    fault: FatalFault
    message: str = field(default="")


TurnOutcome = Finished | Continue | Fatal


class OutcomeName(StrEnum):
    """`turn_outcome.outcome` on the wire."""

    PROGRESSED = "progressed"
    FINISHED = "finished"
    ERROR = "error"
    FATAL = "fatal"


def is_error(outcome: TurnOutcome) -> bool:
    """True only for a turn whose declared work could not be carried out."""
    return isinstance(outcome, Continue) and outcome.error is not None


def outcome_name(outcome: TurnOutcome) -> OutcomeName:
    match outcome:
        case Finished():
            return OutcomeName.FINISHED
        case Fatal():
            return OutcomeName.FATAL
        case Continue(error=None):
            return OutcomeName.PROGRESSED
        case Continue():
            return OutcomeName.ERROR


def failure_headline(text: str) -> str:
    """The one line that names a failure: the first line of its text, or for a Python traceback
    (which names its exception last) the last one."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    return lines[-1] if lines[0].startswith("Traceback") else lines[0]
