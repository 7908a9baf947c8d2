"""Benchmark how far past its time ceiling a runaway program is stopped, beside a CPU-loading
neighbour.

Run as `.venv/bin/python bench/ceilings.py [--repeats N]`. Takes the runaway programs of the
attack corpus (`tests/cases/attacks/`, categories `runaway-loop` and `runaway-host-loop`, and the
blocked thread of case 089), each on its own arm and on its type-checked twin, and runs each one
`--repeats` times (default 20) under its case's ceilings while one busy process per core spins
beside it. Before each timed run a trivial program warms the arm (a stopped guest is replaced),
so the figure is the caller's: from the call to the report, minus the ceiling and, on a checked
arm, minus the type check. Prints the overshoot's p50/p95/max per arm, the time the next program
took after a stop, and the load average. Targets: p95 ≤ 250 ms, max ≤ 500 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gg.config.ceilings import Ceilings
from gg.errors import ErrorCode, OperationError
from gg.outcome import ErrorType
from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry

CASES = Path(__file__).resolve().parents[1] / "tests" / "cases" / "attacks"
RUNAWAY_CATEGORIES = {"runaway-loop", "runaway-host-loop"}
BLOCKED = "089"
TWINS = {"javascript": ("javascript", "typescript"), "python": ("python", "python-typed")}
TRIVIAL = {
    "javascript": 'import { views } from "gg";\nviews.openText("alive", "yes");\n',
    "typescript": 'import { views } from "gg";\nviews.openText("alive", "yes");\n',
    "python": 'from gg import views\nviews.open_text("alive", "yes")\n',
    "python-typed": 'from gg import views\nviews.open_text("alive", "yes")\n',
}
SPIN = "while True:\n    pass\n"


@dataclass(frozen=True)
class Runaway:
    case: str
    language: str
    program: str
    ceilings: Ceilings


def host(operation: str, args: Mapping[str, Any]) -> Any:
    """Every file call fails as a missing path; every other call succeeds with nothing."""
    if operation.startswith("files."):
        raise OperationError(operation.split(".", 1)[1], ErrorCode.NOT_FOUND, "no such file")
    return None


def runaways() -> list[Runaway]:
    found: list[Runaway] = []
    for path in sorted(CASES.glob("*.yaml")):
        case = yaml.safe_load(path.read_text())
        number = path.name[:3]
        if case["category"] not in RUNAWAY_CATEGORIES and number != BLOCKED:
            continue
        limits = case["ceilings"]
        ceilings = Ceilings(float(limits["timeoutSecs"]), int(limits["maxMemoryBytes"]))
        for language in TWINS.get(case["arm"], (case["arm"],)):
            found.append(Runaway(number, language, case["program"], ceilings))
    return found


@contextmanager
def neighbour() -> Iterator[None]:
    """One busy process per core, for the run's length."""
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(os.cpu_count() or 1)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def overshoot_ms(arm: Arm, runaway: Runaway) -> tuple[float, float] | None:
    """(overshoot, time of the next trivial program) in ms, or None when the program was not
    stopped at its time ceiling (it ended, or was refused by the checker)."""
    start = time.perf_counter()
    execution = arm.run(runaway.program, host, runaway.ceilings)
    wall = (time.perf_counter() - start) * 1000
    if execution.failure is None or execution.failure.type is not ErrorType.SANDBOX_TIMEOUT:
        return None
    overshoot = wall - runaway.ceilings.timeout_secs * 1000 - (execution.compile_ms or 0.0)
    start = time.perf_counter()
    arm.run(TRIVIAL[runaway.language], host, Ceilings(5.0, 256 * 1024 * 1024))
    return overshoot, (time.perf_counter() - start) * 1000


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   max {ordered[-1]:7.1f} ms"


def bench_arm(language: str, cases: list[Runaway], repeats: int) -> None:
    overshoots: list[float] = []
    recoveries: list[float] = []
    skipped: list[str] = []
    arm = build_arm(language, default_registry())
    try:
        arm.run(TRIVIAL[language], host, Ceilings(5.0, 256 * 1024 * 1024))
        for runaway in cases:
            for _ in range(repeats):
                measured = overshoot_ms(arm, runaway)
                if measured is None:
                    skipped.append(runaway.case)
                    break
                overshoots.append(measured[0])
                recoveries.append(measured[1])
    finally:
        arm.close()
    ran = sorted({r.case for r in cases} - set(skipped))
    print(
        f"{language:<13} overshoot   {percentiles(overshoots)}   (n={len(overshoots)}, cases {' '.join(ran)})"
    )
    print(f"{'':<13} next program {percentiles(recoveries)}")
    if skipped:
        print(f"{'':<13} not stopped at the ceiling (left out): {' '.join(sorted(set(skipped)))}")


def load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    options = parser.parse_args()
    cases = runaways()
    print(f"load average before: {load()}")
    with neighbour():
        for language in ("javascript", "typescript", "python", "python-typed"):
            bench_arm(language, [r for r in cases if r.language == language], options.repeats)
        print(f"load average at the end (the neighbour spinning): {load()}")


if __name__ == "__main__":
    main()
