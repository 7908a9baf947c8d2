"""Benchmark SQL over runs: each view read whole, and a `GROUP BY` over it, on a store of many runs.

The spec-audit example is run once by the real `gg run` (offline, replayed); its run is then copied
in SQL under new ids until the store holds N runs (1,000 unless told), every event with it. For
each view it prints the rows and the time `gg.record.query.run_query` takes to count them, then a
few questions a reader asks (error turns per arm, SDK calls per operation, programs per agent),
each the median of 3 runs, with the time bound lifted so that a slow view shows as slow.

Run as `.venv/bin/python bench/query.py [N]`.
"""

from __future__ import annotations

import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gg.record.query import run_query
from gg.record.views import VIEWS

REPO = Path(__file__).resolve().parents[1]
GG = Path(sys.executable).parent / "gg"
RUNS = 1_000
REPEATS = 3
QUESTIONS = (
    "SELECT arm, COUNT(*), SUM(error_turn) FROM turns GROUP BY arm",
    "SELECT operation, COUNT(*), AVG(duration_ms) FROM api_calls GROUP BY operation",
    "SELECT agent_id, COUNT(*), SUM(1 - ok) FROM programs GROUP BY agent_id",
    "SELECT status, COUNT(*), AVG(turns) FROM runs GROUP BY status",
)


def recorded_store(folder: Path) -> Path:
    shutil.copytree(REPO / "examples" / "spec-audit", folder / "spec-audit")
    subprocess.run([str(GG), "run", "spec-audit"], cwd=folder, check=True, capture_output=True)
    return folder / ".gg" / "runs.db"


def multiplied(store: Path, runs: int) -> int:
    """Copy the store's one run until it holds `runs`; the events it then holds."""
    with sqlite3.connect(store) as db:
        (source,) = db.execute("SELECT id FROM runs").fetchone()
        for number in range(1, runs):
            copy = f"{source[:-4]}{number:04x}"
            db.execute(
                "INSERT INTO runs SELECT ?, name, config_path, workspace, model, language, started_at,"
                " updated_at,"
                " finished_at, status, exit_code, turns, duration_ms, final_text, message, events, pid, host"
                " FROM runs WHERE id = ?",
                (copy, source),
            )
            db.execute(
                "INSERT INTO events SELECT ?, seq, type, agent_id, turn, timestamp, replace(json, ?, ?)"
                " FROM events WHERE run_id = ?",
                (copy, source, copy, source),
            )
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def timed(store: Path, sql: str) -> tuple[int, float]:
    """Rows answered and the median seconds of `REPEATS` runs."""
    seconds: list[float] = []
    rows = 0
    for _ in range(REPEATS):
        started = time.perf_counter()
        answer = run_query(store, sql, rows=1_000_000, seconds=3_600)
        seconds.append(time.perf_counter() - started)
        rows = len(answer.rows)
    return rows, statistics.median(seconds)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    with tempfile.TemporaryDirectory() as scratch:
        store = recorded_store(Path(scratch))
        events = multiplied(store, runs)
        print(f"store: {runs:,} runs, {events:,} events, {store.stat().st_size / 1e6:.1f} MB")
        for view in VIEWS:
            ((count,),) = run_query(store, f"SELECT COUNT(*) FROM {view.name}", seconds=3_600).rows
            _, seconds = timed(store, f"SELECT COUNT(*) FROM {view.name}")
            print(f"  {view.name:<12} {count:>9,} rows  counted in {seconds * 1000:8.1f} ms")
        for sql in QUESTIONS:
            rows, seconds = timed(store, sql)
            print(f"  {seconds * 1000:8.1f} ms  {rows:>4} rows  {sql}")


if __name__ == "__main__":
    main()
