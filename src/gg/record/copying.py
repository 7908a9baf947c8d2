"""Where `gg store copy` reads runs: a store (a path, `sqlite:///PATH`, `postgresql://…`), or a
folder of runs' `events.ndjson` files (a run's folder, a `runs/` folder, `.gg/`, or a folder
holding `.gg/runs/`).

Rules:
- A folder whose SQLite store exists (`.gg/` holding `runs.db`, a folder holding `.gg/runs.db`)
  is read as that store, its studies included; a folder with no store file is read as its events
  files.
- An SQLite store is read with the events files beside it (`runs/<run-id>/events.ndjson`, which
  every run writes whatever its store): a run a file holds more events of than the store (a run a
  PostgreSQL outage cut short, a store that lost its newest writes) or the store lacks is read from
  its file; every other run from the store. A file that cannot be read is named only when the
  store lacks its run.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line loads this module; what it reads is loaded when it runs
    from gg.record.reader import RunReader
    from gg.telemetry.location import StoreLocation
    from gg.telemetry.rebuild import RunEvents, Unread


def from_store(where: StoreLocation) -> Iterator[RunEvents | Unread]:
    """Each run of the store at `where`, oldest first, read-only (with the fuller events files
    beside an SQLite store first); the store is opened now, so one that cannot be read is refused
    (`RunStoreError`) before anything is written anywhere."""
    from gg.record.reader import open_reader
    from gg.telemetry.layout import events_beside
    from gg.telemetry.location import Backend

    reader = open_reader(where)
    beside = events_beside(where.path) if where.backend is Backend.SQLITE else []
    return _fuller_files_first(reader, beside) if beside else _runs_of(reader)


def _fuller_files_first(reader: RunReader, files: list[Path]) -> Iterator[RunEvents | Unread]:
    """The runs `files` hold more of than the store behind `reader`, then the store's others."""
    from gg.record.reader import EVERY_RUN
    from gg.telemetry.copy import from_files
    from gg.telemetry.rebuild import Unread

    held = {row.id: row.events for row in reader.list_runs(EVERY_RUN)}
    fuller = [path for path in files if _lines(path) > held.get(path.parent.name, 0)]
    taken: set[str] = set()
    for run in from_files(fuller):
        if not isinstance(run, Unread):
            taken.add(run.run_id)
        yield run  # an unread file is named: the store holds less of its run
    yield from _runs_of(reader, skip=taken)


def _lines(path: Path) -> int:
    """How many events a run's file holds, counted by its lines (0 when it cannot be read)."""
    try:
        with path.open("rb") as stream:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: stream.read(1 << 20), b""))
    except OSError:
        return 0


def _runs_of(reader: RunReader, skip: Collection[str] = ()) -> Iterator[RunEvents | Unread]:
    from gg.record.reader import EVERY_RUN
    from gg.telemetry.ndjson import encode_record
    from gg.telemetry.rebuild import RunEvents, Unread, reason_of
    from gg.telemetry.typed import event_of

    try:
        for row in reversed(reader.list_runs(EVERY_RUN)):
            if row.id in skip:
                continue
            try:
                records = reader.events(row.id)
                yield RunEvents(row.id, [(event_of(record), encode_record(record)) for record in records])
            except (ValueError, KeyError, TypeError) as why:
                yield Unread(Path(row.id), reason_of(why))
    finally:
        reader.close()


def from_folder(folder: Path) -> Iterator[RunEvents | Unread]:
    """Each run of the events files `folder` holds (`source_store` found it holds some)."""
    from gg.telemetry.copy import from_files, ndjson_files

    return from_files(ndjson_files(folder) or [])


def source_store(given: str) -> StoreLocation | None:
    """The store SRC names; None when it names a folder of events files and no store file (see
    the module rules). `BadStoreUrl` for a location gg cannot read."""
    from gg.telemetry.copy import ndjson_files
    from gg.telemetry.location import parse_store_url

    where = parse_store_url(given, base=Path.cwd())
    folder = Path(given)
    if "://" in given or not folder.is_dir() or where.path.exists():
        return where
    return None if ndjson_files(folder) is not None else where
