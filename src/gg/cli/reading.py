"""`gg runs` and `gg show`: the run store of this folder (or `--store`, or `GG_STORE`) read back,
as tables and transcripts or as the JSON documents `gg.record.export` describes; and the one way
every command names that store (`STORE_OPTION`), opens it and reads it (`open_store`,
`read_store`).

A `--store` (or `GG_STORE`) gg cannot read is a usage error, exit 2. A PostgreSQL server that
cannot be reached, refuses the login or goes away ends the command with one line naming the URL
without its password, exit 1.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT
from gg.telemetry.store_option import STORE_OPTION

if TYPE_CHECKING:
    from gg.record.store import RunStore
    from gg.telemetry.location import StoreLocation

JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON instead.")
T = TypeVar("T")


@click.command()
@click.option(
    "--limit", default=20, show_default=True, type=click.IntRange(min=1), help="How many runs, newest first."
)
@JSON_OPTION
@STORE_OPTION
def runs(limit: int, as_json: bool, where: StoreLocation) -> None:
    """List the runs kept under .gg/ in this folder: arm, model, turns, tokens, cost, errors."""
    from gg.record.export import runs_document

    nothing = _no_store_yet(where)
    if nothing is not None:
        if as_json:
            print_json(runs_document([]))
        else:
            click.echo(f"no runs yet: {nothing}")
        return
    store = open_store(where, create=False)
    listed = read_store(lambda: store.listed(store.list_runs(limit)), where)
    if as_json:
        print_json(runs_document(listed))
        return
    from rich.console import Console

    from gg.terminal.runs import render_runs

    render_runs(listed, Console(highlight=False))


@click.command()
@click.argument("run_ref", metavar="RUN", default="latest")
@click.option("--full", is_flag=True, help="Show the whole system prompt and every message.")
@JSON_OPTION
@STORE_OPTION
def show(run_ref: str, full: bool, as_json: bool, where: StoreLocation) -> None:
    """Print the transcript of RUN (an id, a unique prefix of one, or `latest`)."""
    from gg.record.reader import RunLookupError
    from gg.record.transcript import fold_transcript

    nothing = _no_store_yet(where)
    if nothing is not None:
        click.echo(f"gg show: no runs yet: {nothing}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    store = open_store(where, create=False)
    try:
        row = read_store(lambda: store.find_run(run_ref), where)
    except RunLookupError as missing:
        click.echo(f"gg show: {missing}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    events = read_store(lambda: store.events(row.id), where)
    if as_json:
        from gg.record.export import show_document

        (listed,) = read_store(lambda: store.listed([row]), where)
        print_json(show_document(listed, fold_transcript(events, for_terminal=False)))
        return
    from rich.console import Console

    from gg.terminal.show import render_transcript

    render_transcript(fold_transcript(events), Console(highlight=False), full=full)


def print_json(document: dict[str, Any]) -> None:
    """One JSON document, every character outside ASCII escaped: nothing a run wrote can reach
    the terminal as a control sequence."""
    import json

    click.echo(json.dumps(document, indent=2, ensure_ascii=True))


def read_store(query: Callable[[], T], where: StoreLocation | None = None) -> T:
    """A query of the run store; a damaged store ends the command with one line naming the way
    out (exit 2, as `gg run` refuses it), a server gone away with one naming it (exit 1)."""
    import sqlite3

    from gg.telemetry.integrity import way_out
    from gg.telemetry.postgres import StoreUnreachable

    try:
        return query()
    except StoreUnreachable as gone:
        click.echo(f"gg: {gone}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    except sqlite3.DatabaseError as damaged:
        path = Path(".gg/runs.db") if where is None else where.path
        click.echo(f"gg: the run store {path} cannot be read: {damaged}; {way_out(path)}", err=True)
        sys.exit(REFUSED_EXIT)


def open_store(where: StoreLocation, *, create: bool) -> RunStore:
    """The run store at `where`; a store that cannot be used ends the command with one line, exit
    2 (a server that cannot be reached: exit 1)."""
    import sqlite3

    from gg.record.store import RunStore
    from gg.telemetry.postgres import StoreUnreachable
    from gg.telemetry.store import RunStoreError

    try:
        store = RunStore(where, create=create)
    except StoreUnreachable as unreachable:
        click.echo(f"gg: {unreachable}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    except (RunStoreError, sqlite3.DatabaseError, OSError) as unusable:
        click.echo(f"gg: the run store {where.shown} cannot be used: {unusable}", err=True)
        sys.exit(REFUSED_EXIT)
    if store.check is not None and store.check.note is not None:
        click.echo(f"gg: note: {store.check.note}.", err=True)
    return store


def _no_store_yet(where: StoreLocation) -> str | None:
    """Why there are no runs to read yet (no store file, a database holding no store); None when
    there may be."""
    if where.url is None:
        return None if where.path.exists() else f"{where.shown} does not exist"
    from gg.record.reader import held_postgres
    from gg.telemetry.postgres import NoStoreThere, StoreUnreachable

    try:
        held_postgres(where).close()
    except NoStoreThere as none:
        return str(none)
    except StoreUnreachable as unreachable:
        click.echo(f"gg: {unreachable}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    return None
