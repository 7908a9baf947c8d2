"""Benchmark the run store on its two databases, SQLite and PostgreSQL, on this machine.

    .venv/bin/python bench/store.py [--events 5000] [--runs 1000] [--repeats 5]

For each database it prints:
- events written per second: one run's events emitted one by one through `Telemetry`, each in
  its own transaction (as a live run writes them);
- a 10,000-event run read back whole (`RunReader.events`, every record parsed), p50 of
  `--repeats` (min, max);
- a GROUP BY over `--runs` runs (each 20 events, written in bulk first): events per model and
  type joined to their runs, p50 of `--repeats` (min, max).
PostgreSQL is a server the benchmark starts itself (Debian's binaries, `tests/postgres_server.py`)
on loopback, with fsync on, as a team's server runs; SQLite is a file in a temporary folder
(WAL, synchronous=NORMAL, as gg writes it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gg.record.reader import open_reader
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import ApiCall, ApiResult, Event, RunStarted
from gg.telemetry.location import StoreLocation, parse_store_url
from gg.telemetry.ndjson import encode_event
from gg.telemetry.store import StoreWriter
from support.postgres_server import PostgresServer

BIG_RUN = 10_000
EVENTS_A_RUN = 20
GROUP_BY = (
    "SELECT r.model, e.type, COUNT(*), MAX(e.turn) FROM events e JOIN runs r ON r.id = e.run_id"
    " GROUP BY r.model, e.type ORDER BY r.model, e.type"
)


def started(run_id: str, model: str) -> Event:
    payload = RunStarted(
        name="bench", config_path="", workspace="", model=model, language="python", limits={}
    )
    return Event(run_id, "root", 0, "2026-12-02T00:00:00.000Z", payload)


def call(run_id: str, n: int) -> Event:
    payload = (
        ApiCall(operation="files.read_file", ordinal=n)
        if n % 2
        else ApiResult(operation="files.read_file", ordinal=n, ok=True)
    )
    return Event(run_id, "root", 1 + n // 10, f"2026-12-02T00:00:{n % 60:02d}.000Z", payload)


def bulk(writer: StoreWriter, run_id: str, events: int, model: str = "m") -> None:
    batch = [started(run_id, model), *(call(run_id, n) for n in range(events - 1))]
    writer.restore([(event, encode_event(event)) for event in batch])


def written_per_second(where: StoreLocation, events: int) -> float:
    writer = StoreWriter(where)
    telemetry = Telemetry("run-live", [writer])
    begun = time.perf_counter()
    telemetry.emit("root", 0, started("run-live", "m").payload)
    for n in range(events - 1):
        telemetry.emit("root", 1 + n // 10, call("run-live", n).payload)
    spent = time.perf_counter() - begun
    telemetry.close()
    return events / spent


def timed(action: Callable[[], object], repeats: int) -> str:
    seconds: list[float] = []
    for _ in range(repeats):
        begun = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - begun)
    p50 = statistics.median(seconds)
    return f"{p50 * 1000:,.1f} ms (min {min(seconds) * 1000:,.1f}, max {max(seconds) * 1000:,.1f})"


def measure(name: str, where: StoreLocation, events: int, runs: int, repeats: int) -> None:
    rate = written_per_second(where, events)
    writer = StoreWriter(where)
    bulk(writer, "run-big", BIG_RUN)
    for n in range(runs):
        bulk(writer, f"run-{n:05d}", EVENTS_A_RUN, model=f"model-{n % 4}")
    writer.close()
    reader = open_reader(where)
    assert len(reader.events("run-big")) == BIG_RUN

    def group_by() -> object:
        with reader._connections.connection() as db:  # pyright: ignore[reportPrivateUsage]
            return db.execute(GROUP_BY).fetchall()

    print(f"{name}:")
    print(f"  events written, one transaction each: {rate:,.0f} events/s ({events:,} events)")
    print(f"  a {BIG_RUN:,}-event run read back:     {timed(lambda: reader.events('run-big'), repeats)}")
    print(f"  GROUP BY over {runs:,} runs ({runs * EVENTS_A_RUN:,} events): {timed(group_by, repeats)}")
    reader.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        sqlite = parse_store_url(Path(scratch) / "runs.db", base=Path(scratch))
        measure("SQLite", sqlite, args.events, args.runs, args.repeats)
    server = PostgresServer(durable=True)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            postgres = parse_store_url(server.fresh_database(), base=Path(scratch))
            measure("PostgreSQL", postgres, args.events, args.runs, args.repeats)
    finally:
        server.stop()
        server.remove()


if __name__ == "__main__":
    main()
