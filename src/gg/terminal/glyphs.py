"""The words and marks both terminal views share (`display` live, `show` after the fact).

Rules:
- Glyphs fall back to ASCII when the console cannot encode them (a CI log with a legacy encoding),
  and `encodable` turns any other character such a console cannot carry into `?`.
- Durations read `12 ms`, `3.4 s`, `2m 05s`, `1h 02m`.
- One line per program: `✓ program k3p9 ran in 12 ms — 4 calls`, or
  `✗ program k3p9: program_throw at program.js:5:3 — <first line of the error>`.
- One line per ceiling that stopped an agent, stating the rule as the ceiling means it: reached
  (`3 consecutive errors ≥ maxConsecutiveErrors 3`) for the ceilings that stop on reaching their
  threshold, exceeded (`error rate 0.6 … > maxErrorRate 0.5`) for the error rate, which stops only
  above it.
- Text from a run (errors, replies, logs) is never read as rich markup.
- A run's console whose reader goes away (`gg run ... | head`) falls silent; the run goes on to
  its end and is recorded whole.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from gg.record.records import LimitRecord, RecordedProgram

STATUS_STYLES = {
    "completed": "bold green",
    "running": "cyan",
    "interrupted": "magenta",
    "unfinished": "magenta",
    "exhausted": "yellow",
    "limit_exceeded": "yellow",
    "timed_out": "yellow",
    "refused": "red",
    "model_error": "red",
    "internal_error": "bold red",
    "hook_error": "red",
}
OUTCOME_STYLES = {"progressed": "dim", "finished": "green", "error": "red", "fatal": "bold red"}
HOOK_STYLES = {"continue": "dim", "message": "cyan", "block": "yellow", "failed": "red"}
LOG_STYLES = {"debug": "dim", "info": "dim", "warn": "yellow", "error": "red"}


class RunConsole(Console):
    """The console a run's live display writes to."""

    def on_broken_pipe(self) -> None:
        """Fall silent for good (rich's own answer, exiting, would cut the run short)."""
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self.file.fileno())
        os.close(devnull)


@dataclass(frozen=True)
class Glyphs:
    ok: str
    failed: str
    arrow: str
    receipt: str
    dash: str
    quote: str
    warn: str
    dot: str
    more: str
    at_least: str


UNICODE = Glyphs(
    ok="✓", failed="✗", arrow="→", receipt="↳", dash="—", quote="│", warn="!", dot="·", more="…", at_least="≥"
)
ASCII = Glyphs(
    ok="+",
    failed="x",
    arrow="->",
    receipt="<-",
    dash="--",
    quote="|",
    warn="!",
    dot="-",
    more="...",
    at_least=">=",
)


@dataclass(frozen=True)
class Ceiling:
    """How a ceiling (a `limit_exceeded` record's `limit`) reads: its capability-set key, and
    whether it stops on exceeding its threshold rather than on reaching it."""

    key: str
    exceeded: bool = False


CEILINGS = {
    "turns": Ceiling("maxTurns"),
    "runtime": Ceiling("maxRuntimeSecs"),
    "consecutive_errors": Ceiling("maxConsecutiveErrors"),
    "error_rate": Ceiling("maxErrorRate", exceeded=True),
    "cost": Ceiling("maxCost"),
}


def glyphs_for(console: Console) -> Glyphs:
    """Unicode marks when the console's encoding can carry them, ASCII otherwise."""
    return UNICODE if console.encoding.lower().startswith("utf") else ASCII


def encodable(text: Text, console: Console) -> Text:
    """`text` with every character the console's encoding cannot carry replaced by `?`."""
    encoding = console.encoding
    if encoding.lower().startswith("utf"):
        return text
    text.plain = text.plain.encode(encoding, "replace").decode(encoding)
    return text


def format_duration(ms: float | None) -> str:
    """`12 ms`, `3.4 s`, `2m 05s`, `1h 02m`; `—` when unknown."""
    if ms is None:
        return "—"
    if ms < 1000:
        return f"{ms:.0f} ms"
    secs = ms / 1000
    if secs < 60:
        return f"{secs:.1f} s"
    minutes, secs = divmod(int(secs), 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def program_name(program: RecordedProgram) -> str:
    return f"program {program.program_id}" if program.program_id else f"submission {program.submission}"


def program_line(program: RecordedProgram, marks: Glyphs) -> Text:
    """The one line a program gets: its verdict, time and calls, or its error's type and first line."""
    name = program_name(program)
    if program.programs > 1:
        name = f"{name} (a chain of {program.programs} programs)"
    if program.ok:
        return Text.assemble(
            (f"{marks.ok} ", "green"),
            f"{name} ran in {format_duration(program.duration_ms)} {marks.dash} ",
            plural(program.api_calls, "call"),
        )
    where = f" at {program.location}" if program.location else ""
    line = Text.assemble(
        (f"{marks.failed} ", "red"), f"{name}: ", (program.error_type or "failed", "red"), where
    )
    if program.error_line:
        line.append(f" {marks.dash} {program.error_line}")
    return line


def status_text(status: str) -> Text:
    return Text(status, style=STATUS_STYLES.get(status, "bold"))


def first_line(text: str, limit: int = 100) -> str:
    """The first non-blank line of a text, cut to `limit` characters."""
    line = next((raw.strip() for raw in text.splitlines() if raw.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def ceiling_line(limit: LimitRecord, marks: Glyphs) -> str:
    """`! ceiling reached: 3 consecutive errors ≥ maxConsecutiveErrors 3 (after 3 turns)`."""
    ceiling = CEILINGS.get(limit.limit)
    after = "" if limit.limit == "turns" else f" (after {plural(limit.turns, 'turn')})"
    if ceiling is None:
        return f"{marks.warn} ceiling {limit.limit}: {limit.observed:g}, threshold {limit.threshold:g}{after}"
    verb, relation = ("exceeded", ">") if ceiling.exceeded else ("reached", marks.at_least)
    observed = _observed(limit)
    return f"{marks.warn} ceiling {verb}: {observed} {relation} {ceiling.key} {limit.threshold:g}{after}"


def _observed(limit: LimitRecord) -> str:
    match limit.limit:
        case "turns":
            return plural(int(limit.observed), "turn")
        case "runtime":
            return f"runtime {limit.observed:g} s"
        case "consecutive_errors":
            return plural(int(limit.observed), "consecutive error")
        case "error_rate":
            over = f" over the last {plural(limit.window, 'turn')}" if limit.window else ""
            return f"error rate {limit.observed:.3g}{over}"
        case "cost":
            return f"cost ${limit.observed:.4f}"
        case _:
            return f"{limit.limit} {limit.observed:g}"
