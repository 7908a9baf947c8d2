"""`gg store copy SRC DST`: every run of one store (or of a folder of runs' events files) into
another, and every study of a store with them; idempotent (`gg.telemetry.copy` says how a run is
copied and when it is skipped, `gg.study.copying` how a study is).

SRC is what `gg.record.copying` reads; DST is a store, made when missing. It prints how many runs
and events it copied and skipped, then, when SRC holds studies, how many studies and cells. Exit 0
when every run was read; 1 when some could not be (named, with why) or a PostgreSQL server could
not be reached; 2 for a location gg cannot read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT

if TYPE_CHECKING:  # the command line loads this module; what it runs is loaded when it runs
    from gg.study.copying import StudiesCopied
    from gg.telemetry.copy import CopyTally
    from gg.telemetry.location import StoreLocation


@click.command("copy")
@click.argument("source", metavar="SRC")
@click.argument("target", metavar="DST")
def copy(source: str, target: str) -> None:
    """Copy every run of SRC (a store, or a folder of runs' events.ndjson files) into the store
    DST, and every study of a store SRC; what DST already holds is skipped, so copying twice adds
    nothing."""
    from gg.record.copying import from_folder, from_store, source_store
    from gg.study.copying import copy_studies
    from gg.telemetry.copy import copy_runs
    from gg.telemetry.location import BadStoreUrl, parse_store_url
    from gg.telemetry.store import RunStoreError

    try:
        into, store = parse_store_url(target, base=Path.cwd()), source_store(source)
        copied = copy_runs(from_folder(Path(source)) if store is None else from_store(store), into)
        studies = None if store is None else copy_studies(store, into)
    except BadStoreUrl as bad:
        click.echo(f"gg store copy: {bad}", err=True)
        sys.exit(REFUSED_EXIT)
    except RunStoreError as unusable:
        click.echo(f"gg store copy: {unusable}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    _report(copied, studies, into)


def _counted(count: int, word: str, words: str | None = None) -> str:
    return f"1 {word}" if count == 1 else f"{count:,} {words or word + 's'}"


def _report(copied: CopyTally, studies: StudiesCopied | None, into: StoreLocation) -> None:
    from gg.wire import escaped

    runs, events = _counted(copied.runs, "run"), _counted(copied.events, "event")
    skipped = f"{_counted(copied.skipped_runs, 'run')} already there"
    held = _counted(copied.skipped_events, "event")
    click.echo(f"gg store copy: copied {runs} ({events}) into {into.shown}; skipped {skipped} ({held})")
    if studies is not None and (studies.studies or studies.cells or studies.skipped):
        study_count = _counted(studies.studies, "study", "studies")
        held_studies = _counted(studies.skipped, "study", "studies")
        cells = _counted(studies.cells, "cell")
        click.echo(f"gg store copy: copied {study_count} and {cells}; skipped {held_studies} already there")
    if copied.unread:
        click.echo(f"could not read {_counted(len(copied.unread), 'run')}, which copied nothing:", err=True)
        for unread in copied.unread:
            click.echo(f"  {escaped(str(unread.path))}: {escaped(unread.reason)}", err=True)
        sys.exit(INCOMPLETE_EXIT)
