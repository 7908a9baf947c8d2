"""Benchmark the command line's start-up: each command timed as a whole process, from its start to
its exit, the way an operator waits for it.

Run as `.venv/bin/python bench/cli.py [RUNS]` (default 7 runs a command, after one warm-up that is
not counted). It copies `examples/spec-audit` into a scratch folder, replays it once there so a run
store exists, then times `gg --version`, `gg runs`, `gg show latest` and a whole replayed run of
the example (in a fresh copy each time, so every run does the same work), and prints the wall
time's p50, min and max in milliseconds for each, and the p50 of the CPU time the process used
(user + system, which a busy machine inflates less than the wall time). Targets on the reference
machine: `--version` ≤ 150 ms, `show` ≤ 300 ms (wall).
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

RUNS = 7
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "spec-audit"
GG = Path(sys.executable).parent / "gg"
TARGETS_MS = {"gg --version": 150, "gg show latest": 300}


def timed(argv: list[str], cwd: Path, before: Callable[[], None] = lambda: None) -> tuple[float, float]:
    """Wall and CPU (user + system, the command and its children) milliseconds from starting
    `argv` in `cwd` to its exit; a failed command ends the bench."""
    before()
    used = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, check=False)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr.decode(errors='replace')}")
    return elapsed, (_children_cpu() - used) * 1000


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh_example(scratch: Path) -> Callable[[], None]:
    """A set-up that puts an untouched copy of the example at `scratch/spec-audit`."""

    def copy() -> None:
        target = scratch / "spec-audit"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(EXAMPLE, target)

    return copy


def measure(label: str, argv: list[str], cwd: Path, runs: int, before: Callable[[], None]) -> None:
    timed(argv, cwd, before)  # warm-up: the page cache, Python's bytecode cache
    figures = [timed(argv, cwd, before) for _ in range(runs)]
    wall = [w for w, _ in figures]
    cpu = statistics.median(c for _, c in figures)
    target = TARGETS_MS.get(label)
    goal = f"  (target ≤ {target} ms)" if target is not None else ""
    print(
        f"{label:<28} p50 {statistics.median(wall):6.0f} ms   min {min(wall):6.0f} ms"
        f"   max {max(wall):6.0f} ms   cpu p50 {cpu:6.0f} ms{goal}"
    )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    with tempfile.TemporaryDirectory(prefix="gg-bench-cli-") as name:
        scratch = Path(name)
        setup = fresh_example(scratch)
        setup()
        replay = [str(GG), "run", "spec-audit"]
        timed(replay, scratch)  # a run for `runs` and `show` to read
        print(f"{runs} runs each, whole processes, {sys.platform}, Python {sys.version.split()[0]}")
        measure("gg --version", [str(GG), "--version"], scratch, runs, lambda: None)
        measure("gg runs", [str(GG), "runs"], scratch, runs, lambda: None)
        measure("gg show latest", [str(GG), "show", "latest"], scratch, runs, lambda: None)
        measure("gg run spec-audit (replay)", replay, scratch, runs, setup)


if __name__ == "__main__":
    main()
