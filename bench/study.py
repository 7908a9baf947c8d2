"""Benchmark the study runner: cells per second over 200 replayed cells, and its per-cell overhead.

Run as `.venv/bin/python bench/study.py [--cells 200] [--no-ray]`. The study is the study-arms
example's `word-count` task on the `javascript` config (a two-turn replayed run), repeated to
CELLS cells, scored by the file it must produce (no check command, so the figures are the
runner's own). Prints:
- a bare run: `execute_run` in this process with a warm guest, writing the run store and its
  NDJSON file as `gg run` does (and, for scale, one `gg run` process from start to exit);
- the study with `--parallel 1`, `--parallel 2`, and on a private local Ray cluster (2 CPUs):
  cells per second over the whole study (worker or cluster start included), and the steady
  per-cell time (the median time between two cells finishing, after the first);
- the runner's per-cell overhead: the steady per-cell time at `--parallel 1` minus the bare run's
  median (medians, as the machine may be shared and busy).
Target: overhead ≤ 50 ms per cell locally.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from gg.agents.run import RunOptions, World, execute_run
from gg.sandbox.arms import build_arm
from gg.sdk.catalogue import default_registry
from gg.study.cell import CellReport
from gg.study.cluster import RayCluster
from gg.study.delivery import Executor
from gg.study.figures import RunFigures
from gg.study.load import Study, load_study
from gg.study.local import LocalPool
from gg.study.plan import CellKey
from gg.study.rows import CellRow
from gg.study.runner import run_study
from gg.telemetry.clock import new_run_id
from gg.telemetry.emitter import Telemetry
from gg.telemetry.ndjson import NdjsonSink
from gg.telemetry.store import StoreWriter

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "study-arms"
BARE_RUNS = 30
TARGET_OVERHEAD_MS = 50.0
STUDY = """
name = "bench"
repeats = {repeats}

[base]
name = "bench"

[[base.agents]]
slug = "root"
model = {{ provider = "replay" }}
capabilities = [
  {{ id = "responses-as-code", params = {{ language = "javascript" }} }},
  {{ id = "program-library", params = {{ keep = 20, idLength = 4 }} }},
]

[configs.javascript]

[tasks.word-count]
workspace = "word-count/workspace"
text = "Count the words of each note into counts.json."
check = {{ produces = ["counts.json"] }}
journals = {{ javascript = "word-count/javascript.jsonl" }}
"""


class Stopwatch:
    """A study progress that keeps the moment each cell finished."""

    def __init__(self) -> None:
        self.finished: list[float] = []

    def start(self, study_id: str, total: int, finished: Sequence[CellRow]) -> None:
        pass

    def advance(self, report: CellReport, figures: RunFigures) -> None:
        self.finished.append(time.perf_counter())

    def lost(self, key: CellKey, reason: str) -> None:
        print(f"  lost {key.label}: {reason}")

    def stop(self) -> None:
        pass

    def steady_ms(self) -> float:
        """The median time between two cells finishing, once the first has (workers warm)."""
        gaps = [later - earlier for earlier, later in zip(self.finished, self.finished[1:], strict=False)]
        return statistics.median(gaps) * 1000


def bench_study(folder: Path, cells: int) -> Study:
    shutil.copytree(EXAMPLE / "tasks" / "word-count", folder / "word-count")
    (folder / "study.toml").write_text(STUDY.format(repeats=cells))
    return load_study(folder)


def bare_runs(study: Study, base: Path) -> list[float]:
    """Milliseconds per `execute_run` with a warm guest, recorded as `gg run` records it."""
    capability_set = study.sets[("javascript", "word-count")]
    arm = build_arm("javascript", default_registry())
    store = StoreWriter.at(base)
    timings: list[float] = []
    try:
        for index in range(BARE_RUNS + 1):
            workspace = Path(tempfile.mkdtemp(prefix="gg-bench-"))
            shutil.rmtree(workspace)
            shutil.copytree(capability_set.workspace, workspace)
            run_id = new_run_id()
            started = time.perf_counter()
            telemetry = Telemetry(run_id, [_Unclosed(store), NdjsonSink(base, run_id)])
            execute_run(capability_set, telemetry, RunOptions(workspace=workspace), World(arm=arm))
            telemetry.close()
            if index:  # the first run warms the guest
                timings.append((time.perf_counter() - started) * 1000)
            shutil.rmtree(workspace)
    finally:
        arm.close()
        store.close()
    return timings


class _Unclosed:
    """The store as a sink the run does not close (it serves every bare run)."""

    def __init__(self, store: StoreWriter) -> None:
        self.store = store

    def write(self, event: object) -> None:
        self.store.write(event)  # type: ignore[arg-type]

    def close(self) -> None:
        pass


def gg_run_process(base: Path) -> float:
    """Milliseconds of one `gg run examples/spec-audit` process, start to exit."""
    gg = Path(sys.executable).parent / "gg"
    started = time.perf_counter()
    subprocess.run([gg, "run", str(EXAMPLE.parent / "spec-audit")], cwd=base, capture_output=True, check=True)
    return (time.perf_counter() - started) * 1000


def timed_study(study: Study, executor: Executor, base: Path) -> tuple[float, Stopwatch]:
    watch = Stopwatch()
    started = time.perf_counter()
    end = run_study(study, executor, base, watch)
    wall = time.perf_counter() - started
    assert end.finished == len(watch.finished), f"{end.finished} cells finished, {len(watch.finished)} seen"
    return wall, watch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=200)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray cluster")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    work = Path(tempfile.mkdtemp(prefix="gg-bench-study-"))
    try:
        run(work, args.cells, ray=not args.no_ray)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work: Path, cells: int, ray: bool) -> None:
    study = bench_study(work / "study", cells)
    print(f"study: {cells} cells (javascript × word-count, a 2-turn replayed run; check: the produced file)")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    bare = bare_runs(study, _base(work, "bare"))
    bare_ms = statistics.median(bare)
    print(
        f"bare run (execute_run, warm guest, run store + NDJSON): median {bare_ms:.1f} ms, {len(bare)} runs"
    )
    print(f"gg run as a process, start to exit (for scale): {gg_run_process(_base(work, 'process')):.0f} ms")
    steady: dict[str, float] = {}
    executors: list[tuple[str, Executor]] = [("--parallel 1", LocalPool(1)), ("--parallel 2", LocalPool(2))]
    if ray:
        executors.append(("--ray local (2 CPUs)", RayCluster("local", study.root, cpus=2)))
    for label, executor in executors:
        wall, watch = timed_study(study, executor, _base(work, label))
        steady[label] = watch.steady_ms()
        print(
            f"{label:>22}: {cells / wall:6.1f} cells/s over the whole study ({wall:.1f} s);"
            f" steady {watch.steady_ms():6.1f} ms per cell ({1000 / watch.steady_ms():.1f} cells/s)"
        )
    overhead = steady["--parallel 1"] - bare_ms
    verdict = "within" if overhead <= TARGET_OVERHEAD_MS else "OVER"
    target = f"{verdict} the {TARGET_OVERHEAD_MS:.0f} ms target"
    print(f"runner overhead per cell at --parallel 1: {overhead:+.1f} ms ({target})")


def _base(work: Path, label: str) -> Path:
    folder = work / "base" / label.replace(" ", "_").replace("-", "").replace("(", "").replace(")", "")
    folder.mkdir(parents=True)
    return folder


if __name__ == "__main__":
    main()
