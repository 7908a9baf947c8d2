"""`gg store copy SRC DST`: every run of one store (or of a folder of NDJSON files) into another,
idempotent (`gg.telemetry.copy` says how a run is copied, and when it is skipped).

SRC is a store (a path, `sqlite:///PATH`, `postgresql://…`) or a folder of runs' `events.ndjson`
files (a run's folder, a `runs/` folder, `.gg/`, or a folder holding `.gg/runs/`; a folder holding
`.gg/runs.db` is read as that store); DST is a store, made when missing. It prints how many runs
and events it copied and skipped. Exit 0 when every run was read; 1 when some could not be read
(named, with why) or a PostgreSQL server could not be reached; 2 for a location gg cannot read.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT

if TYPE_CHECKING:  # the command line loads this module; what it reads is loaded when it runs
    from gg.record.reader import RunReader
    from gg.telemetry.copy import CopyTally
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


def source_of(given: str) -> Iterator[RunEvents | Unread]:
    """The runs SRC names: its NDJSON files, or the store it is."""
    from gg.telemetry.copy import from_files, ndjson_files
    from gg.telemetry.layout import STORE_FILE
    from gg.telemetry.location import parse_store_url

    folder = Path(given)
    if "://" not in given and folder.is_dir() and not (folder / STORE_FILE).exists():
        files = ndjson_files(folder)
        if files is not None:
            return from_files(files)
    return from_store(parse_store_url(given, base=Path.cwd()))


@click.command("copy")
@click.argument("source", metavar="SRC")
@click.argument("target", metavar="DST")
def copy(source: str, target: str) -> None:
    """Copy every run of SRC (a store, or a folder of runs' events.ndjson files) into the store
    DST; runs DST already holds whole are skipped, so copying twice adds nothing."""
    from gg.telemetry.copy import copy_runs
    from gg.telemetry.location import BadStoreUrl, parse_store_url
    from gg.telemetry.store import RunStoreError

    try:
        into = parse_store_url(target, base=Path.cwd())
        copied = copy_runs(source_of(source), into)
    except BadStoreUrl as bad:
        click.echo(f"gg store copy: {bad}", err=True)
        sys.exit(REFUSED_EXIT)
    except RunStoreError as unusable:
        click.echo(f"gg store copy: {unusable}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    _report(copied, into)


def _counted(count: int, word: str) -> str:
    return f"1 {word}" if count == 1 else f"{count:,} {word}s"


def _report(copied: CopyTally, into: StoreLocation) -> None:
    from gg.wire import escaped

    runs, events = _counted(copied.runs, "run"), _counted(copied.events, "event")
    skipped = f"{_counted(copied.skipped_runs, 'run')} already there"
    held = _counted(copied.skipped_events, "event")
    click.echo(f"gg store copy: copied {runs} ({events}) into {into.shown}; skipped {skipped} ({held})")
    if copied.unread:
        click.echo(f"could not read {_counted(len(copied.unread), 'run')}, which copied nothing:", err=True)
        for unread in copied.unread:
            click.echo(f"  {escaped(str(unread.path))}: {escaped(unread.reason)}", err=True)
        sys.exit(INCOMPLETE_EXIT)
