"""Scoring a finished workspace: the files a run must produce, then a command that must exit 0.

Rules:
- the files are looked for first; a missing one is the verdict `missing-file` and the command
  does not run;
- the command runs in the check's jail over the finished workspace (`check_jail.py`: the
  workspace writable, the study's folder read-only and named by `GG_STUDY_DIR`, no network),
  with `/bin/sh -c` and its standard input empty; exit 0 is `solved`, any other exit `failed`,
  and a command still running after `timeoutSecs` is killed with everything it started and is
  `timed-out`;
- the verdict keeps the exit code and the command's whole output, up to the jail's bound on a
  command's output (`MAX_OUTPUT_BYTES`, its last 16 KiB, cut at the start of a line); an output
  longer than that opens with one line saying how many bytes and lines before it were dropped;
- a run refused before its first turn is not checked, and neither is a run whose check cannot
  be jailed where it ran: `not-run` (the cell says why).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

from gg.sandbox.jail import MAX_OUTPUT_BYTES, Output, TimedOut
from gg.study.check_jail import CheckJail
from gg.wire import well_formed

__all__ = ["MAX_OUTPUT_BYTES", "Check", "CheckOutcome", "CheckVerdict", "run_check"]


class CheckVerdict(StrEnum):
    SOLVED = "solved"
    FAILED = "failed"
    TIMED_OUT = "timed-out"
    MISSING_FILE = "missing-file"
    NOT_RUN = "not-run"


@dataclass(frozen=True)
class Check:
    """A task's check, as the study file writes it (`timeout_secs` bounds the command)."""

    command: str | None
    timeout_secs: float
    produces: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckOutcome:
    verdict: CheckVerdict
    exit_code: int | None = None
    detail: str = ""
    duration_ms: float = 0.0

    @property
    def solved(self) -> bool:
        return self.verdict is CheckVerdict.SOLVED


def run_check(check: Check, jail: CheckJail) -> CheckOutcome:
    """The verdict on the workspace `jail` runs in. Raises `JailUnavailable` when this host cannot
    jail the command, `JailFailure` when the jail cannot start it."""
    started = time.monotonic()
    missing = [path for path in check.produces if not (jail.workspace / path).is_file()]
    if missing:
        return CheckOutcome(CheckVerdict.MISSING_FILE, detail="missing: " + ", ".join(missing))
    if check.command is None:
        return CheckOutcome(CheckVerdict.SOLVED, duration_ms=_ms_since(started))
    end = jail.run(check.command, check.timeout_secs)
    output = said(end.output)
    if isinstance(end, TimedOut):
        return CheckOutcome(CheckVerdict.TIMED_OUT, None, output, _ms_since(started))
    verdict = CheckVerdict.SOLVED if end.exit_code == 0 else CheckVerdict.FAILED
    return CheckOutcome(verdict, end.exit_code, output, _ms_since(started))


def said(output: Output) -> str:
    """What a check printed, as its cell keeps it: the whole output, after a line naming what was
    dropped before it when the jail kept only its end."""
    text = well_formed(output.text)
    if not output.truncated:
        return text
    lines = f" ({output.dropped_lines} line{'s' if output.dropped_lines != 1 else ''})"
    return (
        f"[gg: {output.dropped_bytes} bytes{lines} before this were dropped;"
        f" a check's output is kept to its last {MAX_OUTPUT_BYTES // 1024} KiB]\n{text}"
    )


def _ms_since(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)
