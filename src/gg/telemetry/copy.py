"""Moving runs between stores (`gg store copy SRC DST`): an SQLite store into a PostgreSQL one, back,
or the runs' NDJSON files (a folder of `<run-id>/events.ndjson`, the local copies every run
writes) into either.

Rules:
- The source is only read. Each run is copied whole, in one transaction, through the target's
  own writer (`StoreWriter.restore`), so its row reads as the live run left it.
- A run the target already holds is compared by its count of events: one holding as many as the
  source (or more) is skipped; one holding fewer gets the events it lacks, after those it has
  (a run cut short when its server went away is completed so from its NDJSON file). Copying
  twice therefore adds nothing.
- An NDJSON file that cannot be read whole is named, with why, and copies nothing
  (`gg.telemetry.rebuild` reads them).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gg.telemetry.layout import EVENTS_FILE, GG_DIR, RUNS_DIR
from gg.telemetry.location import StoreLocation
from gg.telemetry.rebuild import RunEvents, Unread, events_of, reason_of
from gg.telemetry.store import StoreWriter


@dataclass
class CopyTally:
    """What a copy did: runs and events copied, runs and events skipped, files not read."""

    runs: int = 0
    events: int = 0
    skipped_runs: int = 0
    skipped_events: int = 0
    unread: list[Unread] = field(default_factory=list[Unread])


def ndjson_files(folder: Path) -> list[Path] | None:
    """The events files a folder holds (a run's folder, a `runs/` folder, a `.gg/` folder, or a
    folder holding `.gg/runs/`), in order of their run ids; None when it holds none."""
    for candidates in (
        [folder / EVENTS_FILE],
        sorted(folder.glob(f"*/{EVENTS_FILE}")),
        sorted((folder / RUNS_DIR).glob(f"*/{EVENTS_FILE}")),
        sorted((folder / GG_DIR / RUNS_DIR).glob(f"*/{EVENTS_FILE}")),
    ):
        found = [path for path in candidates if path.is_file()]
        if found:
            return found
    return None


def copy_runs(source: Iterator[RunEvents | Unread], target: StoreLocation) -> CopyTally:
    """Every run `source` yields into the store at `target` (see the module rules)."""
    copied, writer = CopyTally(), StoreWriter(target)
    try:
        for run in source:
            if isinstance(run, Unread):
                copied.unread.append(run)
                continue
            held = _held(writer, run.run_id)
            lacking = run.events[held:]
            copied.skipped_events += min(held, len(run.events))
            if not lacking:
                copied.skipped_runs += 1
                continue
            writer.restore(lacking)
            copied.runs, copied.events = copied.runs + 1, copied.events + len(lacking)
    finally:
        writer.close()
    return copied


def from_files(files: list[Path]) -> Iterator[RunEvents | Unread]:
    """Each file's run, or why it could not be read."""
    for path in files:
        try:
            yield events_of(path)
        except (OSError, ValueError, KeyError, TypeError) as why:
            yield Unread(path, reason_of(why))


def _held(writer: StoreWriter, run_id: str) -> int:
    with writer.connection() as db:
        row = db.execute("SELECT events FROM runs WHERE id = ?", (run_id,)).fetchone()
    return 0 if row is None else int(row[0])
