"""Benchmark the run store's check on open for writing (`gg.telemetry.integrity`): how long
SQLite's `quick_check` takes on a store of many runs, and what it costs every `gg run` that opens
that store.

    .venv/bin/python bench/store_check.py [--runs 1000] [--repeats 5]

It records the spec-audit example once (offline, replayed) and writes that run's events again
under new ids until the store holds `--runs` runs, then prints the store's size, the time of a
whole unbounded `quick_check`, and the time to open the store for writing as `gg run` does (the
check included, stopped at its bound), each the p50 of `--repeats` (min, max), with whether the
check finished within its bound. The page cache is warm (the store was just written), as it is
for a store in daily use.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gg
from gg.telemetry.integrity import CHECK_BOUND_SECS
from gg.telemetry.ndjson import encode_record
from gg.telemetry.store import StoreWriter
from gg.telemetry.typed import event_of

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "spec-audit"


def example_events(scratch: Path) -> list[dict[str, Any]]:
    """The wire records of one replayed run of the spec-audit example."""
    copy = scratch / "spec-audit"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    result = gg.run(copy, store=scratch)
    with gg.open_store(scratch) as store:
        return [event.to_wire() for event in store.run(result.run_id).events()]


def filled_store(path: Path, events: list[dict[str, Any]], runs: int) -> None:
    """A store at `path` holding `runs` copies of the run `events` records, each under its own id."""
    store = StoreWriter(path)
    try:
        for number in range(runs):
            run_id = f"run-20260101-000000-{number:06d}"
            copied = [{**record, "runId": run_id} for record in events]
            store.restore([(event_of(record), encode_record(record)) for record in copied])
    finally:
        store.close()


def timed(action: Callable[[], None], repeats: int) -> list[float]:
    """Milliseconds of each of `repeats` calls of `action`."""
    times: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def shown(times: list[float]) -> str:
    return f"p50 {statistics.median(times):8.1f} ms  (min {min(times):.1f}, max {max(times):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        events = example_events(scratch / "example")
        path = scratch / "runs.db"
        filled_store(path, events, arguments.runs)
        size_mb = path.stat().st_size / 1e6
        print(f"store: {arguments.runs:,} runs, {arguments.runs * len(events):,} events, {size_mb:.1f} MB")

        def quick_check() -> None:
            with sqlite3.connect(path) as db:
                assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]

        checks: list[bool] = []

        def open_to_write() -> None:
            store = StoreWriter(path)
            checks.append(store.check.finished)
            store.close()

        print(f"quick_check, whole        {shown(timed(quick_check, arguments.repeats))}")
        print(f"open for writing (gg run) {shown(timed(open_to_write, arguments.repeats))}")
        finished = sum(checks)
        print(
            f"the check finished within its {CHECK_BOUND_SECS:g} s bound in {finished} of {len(checks)} opens"
        )


if __name__ == "__main__":
    main()
