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
  the same script received (both from 1). R must be an earlier reply and C one of its calls.
- A program may be kept in a file of its own instead of a JSON string: `"programFile":
  "turn2.js"` on a line stands for `"calls": [{"name": "submit_program", "arguments":
  {"program": <the file's text>}}]`, and on a call for its `"arguments"`. The path is relative to
  the journal's folder and must stay inside it (a link leading out is refused too); the file is
  UTF-8 text of at most 1 MiB, read when the journal is opened, placeholders allowed.
- A line holding `hostFamily` or `hostAnswer` alone is not a reply: it records a host function's
  declaration or one of its answers, each answer naming the agent it was given to
  (`gg.sdk.host.recording` reads them), so a replay can answer a program's calls with the
  function absent. No script's replies are numbered with them.

Every defect is reported at once, each with its line number, as a `JournalError` (a launch
refusal: a bad journal fails before the first turn). A line with a defect is judged no further,
and neither is what depends on it: a placeholder naming a reply whose line was refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gg.errors import ConfigDefect, ConfigError, shown_found
from gg.outcome import ErrorKind, ErrorType
from gg.providers.base import SUBMIT_PROGRAM, USAGE_FIELDS, Usage
from gg.providers.host_lines import host_line
from gg.telemetry.events import UsageKey
from gg.wire import read_json

_MODEL_ERRORS = frozenset(t.value for t in ErrorType if t.kind is ErrorKind.MODEL_API)
PLACEHOLDER = re.compile(r"\{\{\s*receipt\s+(\d+)\.(\d+)\s*\}\}")
_PLACEHOLDER_START = re.compile(r"\{\{\s*receipt\b")
_LINE_KEYS = frozenset(
    {"text", "calls", "usage", "receipts", "costUsd", "error", "programFile", "agent", "profile"}
)
_CALL_KEYS = frozenset({"name", "arguments", "programFile"})
MAX_PROGRAM_FILE_BYTES = 1024 * 1024
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


class _Defect(Exception):
    def __init__(self, reason: str, found: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.found = found


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
        except _Defect as d:
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
        raise _Defect(f"not valid JSON ({exc}); a reply is one whole JSON object on one line", raw) from exc
    entry = _object(value, "the line", _LINE_KEYS)
    calls = _calls(entry, reading.folder)
    for call in calls:
        _check_placeholders(call.arguments, key, reading)
    error = None if entry.get("error") is None else _error(entry)
    return JournalReply(
        line=line,
        text=_string(entry.get("text", ""), "`text`"),
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
        raise _Defect(f"`{key}` must name an agent's {'id' if key == 'agent' else 'profile'}", value)
    if key == "profile" and "agent" in entry:
        raise _Defect("a line names its `agent` or its `profile`, not both", entry)
    return value


def _calls(entry: dict[str, Any], folder: Path | None) -> tuple[JournalCall, ...]:
    if "programFile" not in entry:
        raw = _list(entry.get("calls", []), "`calls`")
        return tuple(_call(c, n, folder) for n, c in enumerate(raw, 1))
    if "calls" in entry:
        raise _Defect("a line names its program by `programFile` or carries `calls`, not both", entry)
    return (JournalCall(SUBMIT_PROGRAM, {"program": _program_file(entry["programFile"], folder)}),)


def _error(entry: dict[str, Any]) -> JournalFailure:
    if {"text", "calls", "receipts", "programFile"} & set(entry):
        raise _Defect("an `error` line carries no `text`, `calls`, `programFile` or `receipts`", entry)
    error = _object(entry["error"], "`error`", _ERROR_KEYS)
    kind = error.get("type")
    if kind not in _MODEL_ERRORS:
        raise _Defect(f"`error.type` must be one of {', '.join(sorted(_MODEL_ERRORS))}", kind)
    return JournalFailure(ErrorType(kind), _string(error.get("message", ""), "`error.message`"))


def _cost(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise _Defect("`costUsd` must be a number of dollars, zero or more, or null", value)
    return float(value)


def _call(value: Any, n: int, folder: Path | None) -> JournalCall:
    call = _object(value, f"call {n}", _CALL_KEYS)
    if "arguments" in call and "programFile" in call:
        raise _Defect(f"call {n} names its program by `programFile` or carries `arguments`, not both", call)
    if "name" not in call or not {"arguments", "programFile"} & set(call):
        raise _Defect(f"call {n} needs both `name` and `arguments` (or `programFile`)", call)
    name = _string(call["name"], f"call {n}'s `name`")
    if "programFile" in call:
        return JournalCall(name, {"program": _program_file(call["programFile"], folder)})
    arguments = call["arguments"]
    if not isinstance(arguments, str | dict):
        raise _Defect(f"call {n}'s `arguments` must be an object or a string", arguments)
    return JournalCall(name, arguments)


def _program_file(value: Any, folder: Path | None) -> str:
    """The text of a `programFile`: a UTF-8 file inside the journal's folder, at most 1 MiB."""
    name = _string(value, "`programFile`")
    if folder is None:
        raise _Defect("`programFile` is read beside a journal file; this journal was not read from one", name)
    if not name or "\0" in name or Path(name).is_absolute():
        raise _Defect("`programFile` must be a path relative to the journal's folder", name)
    inside = folder.resolve()
    target = (inside / name).resolve()
    if not target.is_relative_to(inside):
        raise _Defect("`programFile` leads outside the journal's folder", name)
    if not target.is_file():
        raise _Defect("`programFile` names no file in the journal's folder", name)
    try:
        with target.open("rb") as stream:
            data = stream.read(MAX_PROGRAM_FILE_BYTES + 1)
    except OSError as exc:
        raise _Defect(f"`programFile` cannot be read ({exc.strerror or exc})", name) from exc
    if len(data) > MAX_PROGRAM_FILE_BYTES:
        raise _Defect(f"`programFile` is over {MAX_PROGRAM_FILE_BYTES} bytes", name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Defect("`programFile` is not UTF-8 text", name) from exc


def _usage(value: Any) -> Usage:
    usage = _object(value, "`usage`", frozenset(key.value for key in USAGE_FIELDS))
    counts = {
        name: _token_count(usage, key) for key, name in USAGE_FIELDS.items() if key != UsageKey.CACHE_READ
    }
    # cache reads absent or null: unknown, as from a provider that reported none
    read = None if usage.get(UsageKey.CACHE_READ) is None else _token_count(usage, UsageKey.CACHE_READ)
    return Usage(**counts, cache_read_tokens=read)


def _token_count(usage: dict[str, Any], key: str) -> int:
    count = usage.get(key, 0)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise _Defect(f"`usage.{key}` must be a whole number, zero or more", count)
    return count


def _receipts(value: Any, calls: int) -> tuple[str | None, ...] | None:
    if value is None:
        return None
    receipts = _list(value, "`receipts`")
    if len(receipts) != calls or not all(r is None or isinstance(r, str) for r in receipts):
        raise _Defect(f"`receipts` must hold one string or null per call ({calls})", receipts)
    return tuple(receipts)


def _check_placeholders(arguments: Any, key: tuple[str, str], reading: _Reading) -> None:
    """Each placeholder names a call of an earlier reply of the same script; one naming a refused
    reply is not judged (that line's own defect is reported)."""
    script = reading.script(key)
    number = len(script) + 1
    for text in strings_in(arguments):
        if len(_PLACEHOLDER_START.findall(text)) != len(PLACEHOLDER.findall(text)):
            raise _Defect("a receipt placeholder must read `{{receipt R.C}}`", text)
        for match in PLACEHOLDER.finditer(text):
            r, c = int(match[1]), int(match[2])
            if not 1 <= r < number:
                raise _Defect(_not_earlier(match[0], number), match[0])
            if r in reading.refused.get(key, set()):
                continue
            calls = len(script[r - 1].calls)
            if not 1 <= c <= calls:
                raise _Defect(f"`{match[0]}`: reply {r} has {calls} call(s)", match[0])


def _not_earlier(placeholder: str, number: int) -> str:
    if number == 1:
        return f"`{placeholder}` must name an earlier reply, and reply 1 has none before it"
    return f"`{placeholder}` must name an earlier reply (1 to {number - 1})"


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a JSON value, keys excluded."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def _object(value: Any, what: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Defect(f"{what} must be a JSON object", value)
    unknown = sorted(set(value) - keys)
    if unknown:
        raise _Defect(
            f"{what} has unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(keys))})", value
        )
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Defect(f"{what} must be a list", value)
    return value


def _string(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise _Defect(f"{what} must be a string", value)
    return value
