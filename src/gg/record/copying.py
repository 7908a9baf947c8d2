"""Where `gg store copy` reads runs: a store (a path, `sqlite:///PATH`, `postgresql://…`), or a
folder of runs' `events.ndjson` files (a run's folder, a `runs/` folder, `.gg/`, or a folder
holding `.gg/runs/`; a folder holding `.gg/runs.db` is read as that store).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line loads this module; what it reads is loaded when it runs
    from gg.record.reader import RunReader
    from gg.telemetry.location import StoreLocation
    from gg.telemetry.rebuild import RunEvents, Unread


def from_store(where: StoreLocation) -> Iterator[RunEvents | Unread]:
    """Each run of the store at `where`, oldest first, read-only; the store is opened now, so one
    that cannot be read is refused (`RunStoreError`) before anything is written anywhere."""
    from gg.record.reader import open_reader

    return _runs_of(open_reader(where))


def _runs_of(reader: RunReader) -> Iterator[RunEvents | Unread]:
    from gg.record.reader import EVERY_RUN
    from gg.telemetry.ndjson import encode_record
    from gg.telemetry.rebuild import RunEvents, Unread, reason_of
    from gg.telemetry.typed import event_of

    try:
        for row in reversed(reader.list_runs(EVERY_RUN)):
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
    """The store SRC names; None when it names a folder of events files. `BadStoreUrl` for a
    location gg cannot read."""
    from gg.telemetry.copy import ndjson_files
    from gg.telemetry.layout import STORE_FILE
    from gg.telemetry.location import parse_store_url

    folder = Path(given)
    named_by_path = "://" not in given and folder.is_dir() and not (folder / STORE_FILE).exists()
    if named_by_path and ndjson_files(folder) is not None:
        return None
    return parse_store_url(given, base=Path.cwd())
