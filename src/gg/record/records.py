"""Wire records read back into values: one reader per event kind, tolerant of absent fields.

Rules:
- A reader takes one wire record (camelCase keys, as `Event.to_wire` writes them) and never raises
  on a missing or mistyped field: absent numbers read as 0 or None, absent text as "".
- A reply's call is read in any common spelling (`id`/`callId`, `name`/`tool`/`function.name`,
  `arguments`/`args`/`input`). A record holding `rawArguments` keeps the arguments' parsed value
  and their text apart; in an older one, arguments written as a string are that text, read
  leniently for their value (`null` when it is not JSON).
- `first_error_line` and `error_location` are the one reading of an error text for display: a
  Python traceback is located at its innermost frame (`program.py:4:12`), any other error at its
  first `at …` line (`program.js:5:3`).
- A hand-over chain's `links` are read into one `LinkRun` each, in the order they ran.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.outcome import failure_headline
from gg.wire import lenient_value

PROGRAM_ARGUMENT = "program"
MAX_LOCATION_CHARS = 60
_AT_LINE = re.compile(r"^\s*at\s+(?:.*\((?P<inner>[^()]+)\)|(?P<plain>.+?))\s*$", re.MULTILINE)
_HEADING_RULE = re.compile(r"^-{3,}$")
_PY_FRAME = re.compile(
    r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+)(?:, column (?P<column>\d+))?', re.MULTILINE
)


@dataclass(frozen=True)
class RecordedMessage:
    """One message as the model read it."""

    role: str
    content: str
    tool_call_id: str | None = None
    tool_calls: tuple[dict[str, Any], ...] = ()
    echo: bool = False


@dataclass(frozen=True)
class RecordedCall:
    """One tool call of a reply, with the receipt acknowledging it: `arguments` is their parsed
    value (`None` for text that is not JSON), `raw_arguments` the text the provider sent."""

    call_id: str
    tool: str
    arguments: Any
    receipt: str | None = None
    program_id: str | None = None
    raw_arguments: str | None = None

    @property
    def program(self) -> str | None:
        value = self.arguments.get(PROGRAM_ARGUMENT) if isinstance(self.arguments, dict) else None
        return value if isinstance(value, str) else None


@dataclass(frozen=True)
class ApiRecord:
    """One SDK call a program made, bracketed by `api_call` / `api_result`."""

    operation: str
    ordinal: int
    ok: bool | None = None
    failure: str | None = None


@dataclass(frozen=True)
class LinkRun:
    """One program of a hand-over chain: its own source and verdict."""

    source: str
    ok: bool
    duration_ms: float
    api_calls: int
    error_type: str | None = None
    error: str | None = None
    error_line: str | None = None
    location: str | None = None


@dataclass(frozen=True)
class RecordedProgram:
    """One submission's program and its verdict (`code_execution`)."""

    submission: int
    ok: bool
    duration_ms: float
    tool_calls: int
    api_calls: int
    program_id: str | None = None
    call_id: str | None = None
    source: str | None = None
    error_type: str | None = None
    error: str | None = None
    error_line: str | None = None
    location: str | None = None
    logs: tuple[str, ...] = ()
    logs_suppressed: int = 0
    finished: str | None = None
    compile_ms: float | None = None
    programs: int = 1  # how many programs the submission's hand-over chain ran
    links: tuple[LinkRun, ...] = ()  # each program of the chain, when it handed over
    api: tuple[ApiRecord, ...] = ()


@dataclass(frozen=True)
class OperatorLog:
    """A `log` record for the operator; never shown to the model."""

    level: str
    message: str
    fields: dict[str, Any] = field(default_factory=dict[str, Any])


@dataclass(frozen=True)
class Outcome:
    """How a turn ended (`turn_outcome`)."""

    outcome: str
    consecutive_errors: int = 0
    error: str | None = None
    error_type: str | None = None
    report: str | None = None
    feedback: tuple[str, ...] = ()


@dataclass(frozen=True)
class LimitRecord:
    """A ceiling breached (`limit_exceeded`)."""

    agent_id: str
    limit: str
    threshold: float
    observed: float
    turns: int
    window: int | None = None


def read_message(raw: Any) -> RecordedMessage:
    item = dict_of(raw)
    calls = tuple(dict_of(c) for c in list_of(item.get("toolCalls")))
    tool_call_id = item.get("toolCallId")
    return RecordedMessage(
        str(item.get("role", "")),
        text_of(item.get("content")),
        str(tool_call_id) if tool_call_id is not None else None,
        calls,
    )


def read_call(raw: Any) -> RecordedCall:
    item = dict_of(raw)
    function = dict_of(item.get("function"))
    call_id = item.get("id") or item.get("callId") or item.get("toolCallId") or ""
    tool = item.get("name") or item.get("tool") or function.get("name") or ""
    arguments = next(
        (item[k] for k in ("arguments", "args", "input") if k in item), function.get("arguments")
    )
    if "rawArguments" in item:
        raw = item["rawArguments"]
        return RecordedCall(
            str(call_id), str(tool), arguments, raw_arguments=raw if isinstance(raw, str) else None
        )
    if isinstance(arguments, str):
        return RecordedCall(str(call_id), str(tool), lenient_value(arguments), raw_arguments=arguments)
    return RecordedCall(str(call_id), str(tool), arguments)


def read_program(record: Mapping[str, Any]) -> RecordedProgram:
    error = record.get("error")
    return RecordedProgram(
        submission=int_of(record.get("submission")),
        ok=bool(record.get("ok")),
        duration_ms=float_of(record.get("durationMs")) or 0.0,
        tool_calls=int_of(record.get("toolCalls")),
        api_calls=int_of(record.get("apiCalls")),
        program_id=record.get("programId"),
        source=record.get("source"),
        error_type=record.get("errorType"),
        error=error,
        error_line=first_error_line(error) if error else None,
        location=error_location(error) if error else None,
        logs=tuple(str(line) for line in list_of(record.get("logs"))),
        logs_suppressed=int_of(record.get("logsSuppressed")),
        finished=record.get("finished"),
        compile_ms=float_of(record.get("compileMs")),
        programs=int_of(record.get("programs")) or 1,
        links=tuple(read_link(raw) for raw in list_of(record.get("links"))),
    )


def read_link(raw: Any) -> LinkRun:
    item = dict_of(raw)
    error = item.get("error")
    error = error if isinstance(error, str) else None
    return LinkRun(
        source=str(item.get("source", "")),
        ok=bool(item.get("ok")),
        duration_ms=float_of(item.get("durationMs")) or 0.0,
        api_calls=int_of(item.get("apiCalls")),
        error_type=item.get("errorType"),
        error=error,
        error_line=first_error_line(error) if error else None,
        location=error_location(error) if error else None,
    )


def read_outcome(record: Mapping[str, Any]) -> Outcome:
    return Outcome(
        outcome=str(record.get("outcome", "")),
        consecutive_errors=int_of(record.get("consecutiveErrors")),
        error=record.get("error"),
        error_type=record.get("errorType"),
        report=record.get("report"),
        feedback=tuple(str(text) for text in list_of(record.get("feedback"))),
    )


def read_limit(record: Mapping[str, Any]) -> LimitRecord:
    window = record.get("window")
    return LimitRecord(
        agent_id=str(record.get("agentId", "")),
        limit=str(record.get("limit", "")),
        threshold=float(record.get("threshold") or 0),
        observed=float(record.get("observed") or 0),
        turns=int_of(record.get("turns")),
        window=int(window) if window is not None else None,
    )


@dataclass(frozen=True)
class HookRecord:
    """One hook run (`hook_run`): its event, its label, what it answered and how long it took."""

    event: str
    hook: str
    action: str
    duration_ms: float
    message: str | None = None
    error: str | None = None

    @property
    def summary(self) -> str:
        """The hook's line: its event, its label in backticks, its action, its time, what it said."""
        said = self.error if self.error is not None else self.message
        head = f"{self.event} `{self.hook}` {self.action} ({self.duration_ms:g} ms)"
        return f"{head}: {said}" if said else head


def read_hook(record: Mapping[str, Any]) -> HookRecord:
    message, error = record.get("message"), record.get("error")
    return HookRecord(
        event=str(record.get("event", "")),
        hook=str(record.get("hook", "")),
        action=str(record.get("action", "")),
        duration_ms=float(record.get("durationMs") or 0),
        message=None if message is None else str(message),
        error=None if error is None else str(error),
    )


def read_log(record: Mapping[str, Any]) -> OperatorLog:
    return OperatorLog(
        str(record.get("level", "")), str(record.get("message", "")), dict_of(record.get("fields"))
    )


def first_error_line(error: str) -> str:
    """The first line of an error's body: a `Heading\\n----` block and blank lines are skipped."""
    lines = [line for line in error.splitlines() if line.strip()]
    if len(lines) >= 2 and _HEADING_RULE.match(lines[1].strip()):
        lines = lines[2:]
    return failure_headline("\n".join(lines))


def error_location(error: str) -> str | None:
    """Where an error points: a Python traceback's innermost frame (`program.py:4:12`), else the
    first `at …` line (`program.js:5:3`, `line 12, column 5`)."""
    frames = list(_PY_FRAME.finditer(error))
    if frames:
        last = frames[-1]
        column = f":{last['column']}" if last["column"] else ""
        return f"{last['file']}:{last['line']}{column}"[:MAX_LOCATION_CHARS]
    found = _AT_LINE.search(error)
    if found is None:
        return None
    where = (found.group("inner") or found.group("plain") or "").strip()
    return where[:MAX_LOCATION_CHARS] or None


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(dict_of(part).get("text", "")) for part in content)
    return "" if content is None else json.dumps(content, ensure_ascii=False)


def int_of(value: Any) -> int:
    return int(value) if isinstance(value, int | float) else 0


def float_of(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def dict_of(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


def list_of(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []
