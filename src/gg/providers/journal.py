"""Replay journals: one recorded model reply per line (JSON Lines), checked whole when opened.

A line is an object; every key is optional:

    {"text": "...",
     "calls": [{"name": "submit_program", "arguments": {"program": "..."}}],
     "usage": {"inputTokens": 12, "outputTokens": 34, "cacheReadTokens": 0, "cacheWriteTokens": 0,
               "cacheWrite1hTokens": 0},
     "costUsd": 0.0012,
     "receipts": ["k3p9"]}

- A `usage` count left out is 0, except `cacheReadTokens`: left out (or `null`) it is unknown,
  as from a provider that reported none.
- `arguments` is required in a call: an object, or a string replayed as it stands (a provider's
  broken JSON, say). `receipts`, when present, has one entry (a string or null) per call.
  `costUsd` is what the reply cost (absent or null: unknown).
- A line may instead record a failed model call, `{"error": {"type": "model_length_capped",
  "message": "..."}, "usage": {...}}`: replayed, it raises that `ModelError`. Its type must be a
  model error type; it carries no text, calls or receipts.
- A line may name whose it is: `"agent": "root.1"` (that agent instance's), `"profile":
  "reviewer"` (that profile's script), or neither (the journal's owner's script). Which names a
  run knows is its book's rule (`book.py`): an unknown profile, or an agent id of no id's shape,
  refuses the launch like any other defect; a well-formed id the run never opens is kept, and
  the run warns of that line at its end.
  Each script's replies are numbered from 1 in file order, comments and blanks not counted.
- Blank lines and lines starting with `//` are ignored, so a hand-written journal can be
  commented.
- A string inside `arguments` may hold `{{receipt R.C}}`: the receipt that call C of reply R of
  the same script received (`gg.providers.receipt_placeholders`).
- A program may be kept in a file of its own instead of a JSON string: `"programFile":
  "turn2.js"` on a line stands for `"calls": [{"name": "submit_program", "arguments":
  {"program": <the file's text>}}]`, and on a call for its `"arguments"`; placeholders are allowed
  in it. Which files it may name: `gg.providers.program_file`.
- A line holding `hostFamily` or `hostAnswer` alone is not a reply: it records a host function's
  declaration or one of its answers, each answer naming the agent it was given to
  (`gg.sdk.host.recording` reads them), so a replay can answer a program's calls with the
  function absent. No script's replies are numbered with them.

Every defect is reported at once, each with its line number, as a `JournalError` (a launch
refusal: a bad journal fails before the first turn). A line with a defect is judged no further,
and neither is what depends on it: a placeholder naming a reply whose line was refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gg.errors import ConfigDefect, ConfigError, shown_found
from gg.outcome import ErrorKind, ErrorType
from gg.providers.base import MOST_TOKENS, SUBMIT_PROGRAM, USAGE_FIELDS, Usage, reported_count
from gg.providers.host_lines import host_line
from gg.providers.line_defect import LineDefect, json_list, json_object, json_string
from gg.providers.program_file import read_program_file
from gg.providers.receipt_placeholders import check_placeholders
from gg.telemetry.events import UsageKey
from gg.wire import read_json

_MODEL_ERRORS = frozenset(t.value for t in ErrorType if t.kind is ErrorKind.MODEL_API)
_LINE_KEYS = frozenset(
    {"text", "calls", "usage", "receipts", "costUsd", "error", "programFile", "agent", "profile"}
)
_CALL_KEYS = frozenset({"name", "arguments", "programFile"})
_ERROR_KEYS = frozenset({"type", "message"})


@dataclass(frozen=True)
class JournalCall:
    name: str
    arguments: str | dict[str, Any]


@dataclass(frozen=True)
class JournalFailure:
    type: ErrorType
    message: str


@dataclass(frozen=True)
class JournalReply:
    """One line. `line` is its line number in the file it was read from (0 when not read);
    `agent` and `profile` say whose script it belongs to (neither: the journal owner's)."""

    line: int
    text: str
    calls: tuple[JournalCall, ...]
    usage: Usage
    receipts: tuple[str | None, ...] | None
    cost_usd: float | None = None
    error: JournalFailure | None = None
    agent: str | None = None
    profile: str | None = None

    @property
    def script(self) -> tuple[str, str]:
        """Which script the line is in: `("agent", id)`, `("profile", slug)` or `("owner", "")`."""
        if self.agent is not None:
            return ("agent", self.agent)
        return ("owner", "") if self.profile is None else ("profile", self.profile)


class JournalError(ConfigError):
    """A journal refused when opened; every defect names its line."""


@dataclass
class _Reading:
    """A journal while its lines are read: each script's replies so far, and which were refused."""

    folder: Path | None
    scripts: dict[tuple[str, str], list[JournalReply]]
    refused: dict[tuple[str, str], set[int]]

    def script(self, key: tuple[str, str]) -> list[JournalReply]:
        return self.scripts.setdefault(key, [])


def load_journal(path: Path) -> tuple[JournalReply, ...]:
    replies, defects = read_journal(path)
    if defects:
        raise JournalError(str(path), defects)
    return replies


def read_journal(path: Path) -> tuple[tuple[JournalReply, ...], list[ConfigDefect]]:
    """The journal's replies and every defect of its lines, in line order (a file that cannot be
    read: that one defect)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return (), [ConfigDefect("journal", str(path), f"cannot be read ({exc})")]
    return _read(text, path.parent)


def parse_journal(text: str, source: str, *, folder: Path | None = None) -> tuple[JournalReply, ...]:
    """The journal's replies; `folder` is where its `programFile`s are read from (none without)."""
    replies, defects = _read(text, folder)
    if defects:
        raise JournalError(source, defects)
    return replies


def _read(text: str, folder: Path | None) -> tuple[tuple[JournalReply, ...], list[ConfigDefect]]:
    reading = _Reading(folder, {}, {})
    replies, defects = list[JournalReply](), list[ConfigDefect]()
    for line, raw in _reply_lines(text):
        key = _script_of(raw)
        script = reading.script(key)
        try:
            replies.append(_reply(line, raw, key, reading))
        except LineDefect as d:
            defects.append(ConfigDefect(f"line {line}", shown_found(d.found), d.reason))
            replies.append(JournalReply(line, "", (), Usage(0, 0), None))  # keeps the numbering
            reading.refused.setdefault(key, set()).add(len(script) + 1)
        script.append(replies[-1])
    if not replies and not defects:
        defects.append(ConfigDefect("journal", "no replies", "a replay journal needs at least one reply"))
    return tuple(replies), defects


def _reply_lines(text: str) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("//") and host_line(stripped) is None:
            yield number, stripped


def _script_of(raw: str) -> tuple[str, str]:
    """The script a line names, read leniently: its own judging reports a bad name."""
    try:
        value = read_json(raw)
    except ValueError:
        return ("owner", "")
    if not isinstance(value, dict):
        return ("owner", "")
    agent, profile = value.get("agent"), value.get("profile")
    if isinstance(agent, str):
        return ("agent", agent)
    return ("profile", profile) if isinstance(profile, str) else ("owner", "")


def _reply(line: int, raw: str, key: tuple[str, str], reading: _Reading) -> JournalReply:
    try:
        value = read_json(raw)
    except ValueError as exc:
        raise LineDefect(
            f"not valid JSON ({exc}); a reply is one whole JSON object on one line", raw
        ) from exc
    entry = json_object(value, "the line", _LINE_KEYS)
    calls = _calls(entry, reading.folder)
    for call in calls:
        check_placeholders(call.arguments, reading.script(key), reading.refused.get(key, set()))
    error = None if entry.get("error") is None else _error(entry)
    return JournalReply(
        line=line,
        text=json_string(entry.get("text", ""), "`text`"),
        calls=calls,
        usage=_usage(entry.get("usage", {})),
        receipts=_receipts(entry.get("receipts"), len(calls)),
        cost_usd=_cost(entry.get("costUsd")),
        error=error,
        agent=_name(entry, "agent"),
        profile=_name(entry, "profile"),
    )


def _name(entry: dict[str, Any], key: str) -> str | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise LineDefect(f"`{key}` must name an agent's {'id' if key == 'agent' else 'profile'}", value)
    if key == "profile" and "agent" in entry:
        raise LineDefect("a line names its `agent` or its `profile`, not both", entry)
    return value


def _calls(entry: dict[str, Any], folder: Path | None) -> tuple[JournalCall, ...]:
    if "programFile" not in entry:
        raw = json_list(entry.get("calls", []), "`calls`")
        return tuple(_call(c, n, folder) for n, c in enumerate(raw, 1))
    if "calls" in entry:
        raise LineDefect("a line names its program by `programFile` or carries `calls`, not both", entry)
    return (JournalCall(SUBMIT_PROGRAM, {"program": read_program_file(entry["programFile"], folder)}),)


def _error(entry: dict[str, Any]) -> JournalFailure:
    if {"text", "calls", "receipts", "programFile"} & set(entry):
        raise LineDefect("an `error` line carries no `text`, `calls`, `programFile` or `receipts`", entry)
    error = json_object(entry["error"], "`error`", _ERROR_KEYS)
    kind = error.get("type")
    if kind not in _MODEL_ERRORS:
        raise LineDefect(f"`error.type` must be one of {', '.join(sorted(_MODEL_ERRORS))}", kind)
    return JournalFailure(ErrorType(kind), json_string(error.get("message", ""), "`error.message`"))


def _cost(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise LineDefect("`costUsd` must be a number of dollars, zero or more, or null", value)
    return float(value)


def _call(value: Any, n: int, folder: Path | None) -> JournalCall:
    call = json_object(value, f"call {n}", _CALL_KEYS)
    if "arguments" in call and "programFile" in call:
        raise LineDefect(
            f"call {n} names its program by `programFile` or carries `arguments`, not both", call
        )
    if "name" not in call or not {"arguments", "programFile"} & set(call):
        raise LineDefect(f"call {n} needs both `name` and `arguments` (or `programFile`)", call)
    name = json_string(call["name"], f"call {n}'s `name`")
    if "programFile" in call:
        return JournalCall(name, {"program": read_program_file(call["programFile"], folder)})
    arguments = call["arguments"]
    if not isinstance(arguments, str | dict):
        raise LineDefect(f"call {n}'s `arguments` must be an object or a string", arguments)
    return JournalCall(name, arguments)


def _usage(value: Any) -> Usage:
    usage = json_object(value, "`usage`", frozenset(key.value for key in USAGE_FIELDS))
    counts = {
        name: _token_count(usage, key) for key, name in USAGE_FIELDS.items() if key != UsageKey.CACHE_READ
    }
    # cache reads absent or null: unknown, as from a provider that reported none
    read = None if usage.get(UsageKey.CACHE_READ) is None else _token_count(usage, UsageKey.CACHE_READ)
    return Usage(**counts, cache_read_tokens=read)


def _token_count(usage: dict[str, Any], key: str) -> int:
    count = reported_count(usage.get(key, 0))
    if count is None:
        raise LineDefect(f"`usage.{key}` must be a whole number from 0 to {MOST_TOKENS}", usage.get(key))
    return count


def _receipts(value: Any, calls: int) -> tuple[str | None, ...] | None:
    if value is None:
        return None
    receipts = json_list(value, "`receipts`")
    if len(receipts) != calls or not all(r is None or isinstance(r, str) for r in receipts):
        raise LineDefect(f"`receipts` must hold one string or null per call ({calls})", receipts)
    return tuple(receipts)
