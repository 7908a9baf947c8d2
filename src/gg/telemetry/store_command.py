"""`gg store`: commands on the run store file itself (`rebuild`), rather than on its runs.

Every command of the group takes `--store PATH`: a `runs.db` file, a folder holding `.gg/`,
`.gg/` itself or `sqlite:///PATH`; else `GG_STORE`'s, else the working directory's `.gg/runs.db`.

`gg store rebuild` rebuilds the store from the runs' events files beside it
(`gg.telemetry.rebuild`) and says how many runs and events it restored, where the store it
replaced is kept, and each events file it could not read, with why. It exits 0 when every file
was read; 1 when some could not be (the store is rebuilt from the others) or the rebuild failed
(the store is left as it was, and the reason said); 2 when there is no events file to rebuild
from. No run should be writing to the store meanwhile: a run still writing keeps writing to the
store set aside, and its events file; a second rebuild then restores it whole.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT
from gg.wire import escaped


def _store_file(given: str | None) -> Path:
    """The SQLite file `--store` (else `GG_STORE`, else this folder's) names; a location gg cannot
    read, or a PostgreSQL store (restored with `gg store copy` instead), ends the command, exit 2."""
    from gg.telemetry.location import Backend, BadStoreUrl, store_location

    try:
        where = store_location(given, base=Path.cwd())
    except BadStoreUrl as bad:
        click.echo(f"gg store rebuild: {bad}", err=True)
        sys.exit(REFUSED_EXIT)
    if where.backend is not Backend.SQLITE:
        click.echo(
            f"gg store rebuild: {where.shown} is a PostgreSQL store; it is rebuilt from a run's "
            "events files with gg store copy FOLDER URL",
            err=True,
        )
        sys.exit(REFUSED_EXIT)
    return where.path


@click.group("store")
def store() -> None:
    """Commands on the run store itself."""


@store.command()
@click.option(
    "--store",
    "location",
    metavar="PATH",
    help="The run store: a runs.db file, a folder holding .gg/, or sqlite:///PATH "
    "(else GG_STORE's, else this folder's).",
)
def rebuild(location: str | None) -> None:
    """Rebuild runs.db from the runs' events.ndjson files beside it (the source of truth); the
    store it replaces is kept beside it, renamed."""
    import sqlite3

    from gg.telemetry.rebuild import NothingToRebuild, rebuild_store

    path = _store_file(location)
    shown = escaped(str(path))
    try:
        rebuilt = rebuild_store(path)
    except NothingToRebuild as nothing:
        click.echo(f"gg store rebuild: {nothing}; {shown} is left as it was", err=True)
        sys.exit(REFUSED_EXIT)
    except (OSError, sqlite3.Error) as failed:
        click.echo(
            f"gg store rebuild: {shown} could not be rebuilt ({failed}); it is left as it was", err=True
        )
        sys.exit(INCOMPLETE_EXIT)
    runs = "1 run" if rebuilt.runs == 1 else f"{rebuilt.runs:,} runs"
    events = "1 event" if rebuilt.events == 1 else f"{rebuilt.events:,} events"
    click.echo(f"gg store rebuild: restored {runs} ({events}) into {shown}")
    if rebuilt.kept is not None:
        click.echo(f"the store it replaced is kept at {escaped(str(rebuilt.kept))}")
    if rebuilt.unread:
        files = "1 events file" if len(rebuilt.unread) == 1 else f"{len(rebuilt.unread)} events files"
        click.echo(f"could not read {files}, which restored nothing:", err=True)
        for unread in rebuilt.unread:
            click.echo(f"  {escaped(str(unread.path))}: {escaped(unread.reason)}", err=True)
        sys.exit(INCOMPLETE_EXIT)
