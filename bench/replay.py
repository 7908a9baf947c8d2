"""Benchmark a replayed session's own time: `examples/spec-audit` (five turns on the JavaScript arm,
six programs: one turn hands over to a second) replayed offline through `gg.run`, each time in a
fresh copy of the example, after one warm-up run that is not counted.

Run as `.venv/bin/python bench/replay.py [RUNS]` (default 9). Prints, over RUNS replays, the
session time's p50, min and max (the run's own `durationMs`, from its start to its end: the
guest's start-up is in it, the Python process's is not), and the p50 of the time its programs
took as the harness saw them (`code_execution`), and the machine's load average. Target: a
replayed five-turn example in ≤ 500 ms of session time, p50.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import gg

RUNS = 9
TARGET_MS = 500.0
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "spec-audit"


def replayed(scratch: Path) -> tuple[float, float]:
    """The session time of one replay of the example in a fresh copy under `scratch`, and the
    time its programs took, in ms."""
    target = scratch / "spec-audit"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(EXAMPLE, target)
    seen: dict[str, Any] = {"session": None, "programs": 0.0}

    def on_event(event: Any) -> None:
        wire = event.to_wire()
        if wire["type"] == "run_finished":
            seen["session"] = float(wire["durationMs"])
        elif wire["type"] == "code_execution":
            seen["programs"] += float(wire["durationMs"])

    result = gg.run(str(target), store=str(scratch), on_event=on_event)
    if not result.ok or seen["session"] is None:
        sys.exit(f"the replay did not complete: {result.status} {result.message}")
    return seen["session"], seen["programs"]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    with tempfile.TemporaryDirectory(prefix="gg-bench-replay-") as name:
        scratch = Path(name)
        replayed(scratch)  # warm-up: imports, the page cache
        figures = [replayed(scratch) for _ in range(runs)]
    sessions = [session for session, _ in figures]
    programs = statistics.median(program for _, program in figures)
    p50 = statistics.median(sessions)
    met = "met" if p50 <= TARGET_MS else "NOT met"
    print(f"{runs} replays of examples/spec-audit (5 turns, JavaScript), load {os.getloadavg()[0]:.1f}")
    print(
        f"session time p50 {p50:6.0f} ms   min {min(sessions):6.0f} ms   max {max(sessions):6.0f} ms"
        f"   programs p50 {programs:5.0f} ms   (target ≤ {TARGET_MS:.0f} ms: {met})"
    )


if __name__ == "__main__":
    main()
