"""Scoring a finished workspace: the files a run must produce, then a command that must exit 0.

Rules:
- the files are looked for first; a missing one is the verdict `missing-file` and the command
  does not run;
- the command runs in the finished workspace with `/bin/sh -c`, its standard input empty, with
  `GG_STUDY_DIR` naming the study's folder (where check scripts live, out of the agent's reach);
  exit 0 is `solved`, any other exit `failed`, and a command still running after `timeoutSecs` is
  killed with everything it started and is `timed-out`;
- the verdict keeps the exit code and the tail of what the command printed;
- a run refused before its first turn is not checked: `not-run`.
`run_check_command` is the one place a check command is started (the shell jail will take it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from gg.wire import well_formed

__all__ = [
    "MAX_OUTPUT_CHARS",
    "STUDY_DIR_ENV",
    "Check",
    "CheckOutcome",
    "CheckVerdict",
    "CommandResult",
    "run_check",
    "run_check_command",
]

STUDY_DIR_ENV = "GG_STUDY_DIR"
MAX_OUTPUT_CHARS = 2000
SHELL = "/bin/sh"


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


@dataclass(frozen=True)
class CommandResult:
    """How a check command ended: its exit code (None when it was killed at its timeout) and
    the tail of its output."""

    exit_code: int | None
    output: str


def run_check(check: Check, workspace: Path, study_dir: Path) -> CheckOutcome:
    """The verdict on `workspace`."""
    started = time.monotonic()
    missing = [path for path in check.produces if not (workspace / path).is_file()]
    if missing:
        return CheckOutcome(CheckVerdict.MISSING_FILE, detail="missing: " + ", ".join(missing))
    if check.command is None:
        return CheckOutcome(CheckVerdict.SOLVED, duration_ms=_ms_since(started))
    result = run_check_command(check.command, workspace, check.timeout_secs, {STUDY_DIR_ENV: str(study_dir)})
    if result.exit_code is None:
        verdict = CheckVerdict.TIMED_OUT
    else:
        verdict = CheckVerdict.SOLVED if result.exit_code == 0 else CheckVerdict.FAILED
    return CheckOutcome(verdict, result.exit_code, result.output, _ms_since(started))


def run_check_command(
    command: str, workspace: Path, timeout_secs: float, env: dict[str, str]
) -> CommandResult:
    """Run `command` in `workspace` under `/bin/sh -c`, killing its whole process group at the timeout."""
    process = subprocess.Popen(
        [SHELL, "-c", command],
        cwd=workspace,
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout_secs)
        exit_code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        _kill_group(process)
        output, _ = process.communicate()
        exit_code = None
    text = well_formed(output.decode("utf-8", "replace"))
    return CommandResult(exit_code, text[-MAX_OUTPUT_CHARS:])


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def _ms_since(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)
