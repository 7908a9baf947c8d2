"""`gg runs` and `gg show`: the run store of this folder read back, as tables and transcripts or
as the JSON documents `gg.record.export` describes; and the one way every command opens that
store and reads it (`open_store`, `read_store`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT

if TYPE_CHECKING:
    from gg.record.store import RunStore

STORE = ".gg/runs.db"  # the store the reading commands read, under the working directory
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON instead.")
T = TypeVar("T")


@click.command()
@click.option(
    "--limit", default=20, show_default=True, type=click.IntRange(min=1), help="How many runs, newest first."
)
@JSON_OPTION
def runs(limit: int, as_json: bool) -> None:
    """List the runs kept under .gg/ in this folder: arm, model, turns, tokens, cost, errors."""
    from gg.record.export import runs_document
    from gg.telemetry.layout import store_path

    if not store_path(Path.cwd()).exists():
        if as_json:
            print_json(runs_document([]))
        else:
            click.echo("no runs yet: .gg/runs.db does not exist in this folder")
        return
    store = open_store(Path.cwd(), create=False)
    listed = read_store(lambda: store.listed(store.list_runs(limit)))
    if as_json:
        print_json(runs_document(listed))
        return
    from rich.console import Console

    from gg.terminal.show import render_runs

    render_runs(listed, Console(highlight=False))


@click.command()
@click.argument("run_ref", metavar="RUN", default="latest")
@click.option("--full", is_flag=True, help="Show the whole system prompt and every message.")
@JSON_OPTION
def show(run_ref: str, full: bool, as_json: bool) -> None:
    """Print the transcript of RUN (an id, a unique prefix of one, or `latest`)."""
    from gg.record.reader import RunLookupError
    from gg.record.transcript import fold_transcript
    from gg.telemetry.layout import store_path

    if not store_path(Path.cwd()).exists():
        click.echo("gg show: no runs yet: .gg/runs.db does not exist in this folder", err=True)
        sys.exit(INCOMPLETE_EXIT)
    store = open_store(Path.cwd(), create=False)
    try:
        row = read_store(lambda: store.find_run(run_ref))
    except RunLookupError as missing:
        click.echo(f"gg show: {missing}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    events = read_store(lambda: store.events(row.id))
    if as_json:
        from gg.record.export import show_document

        (listed,) = read_store(lambda: store.listed([row]))
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


def read_store(query: Callable[[], T]) -> T:
    """A query of the run store; a damaged store ends the command with one line naming the way
    out, exit 1."""
    import sqlite3

    from gg.telemetry.integrity import way_out

    try:
        return query()
    except sqlite3.DatabaseError as damaged:
        click.echo(f"gg: the run store {STORE} cannot be read: {damaged}; {way_out(Path(STORE))}", err=True)
        sys.exit(INCOMPLETE_EXIT)


def open_store(base: Path, *, create: bool) -> RunStore:
    """The run store under `base`; a store that cannot be used ends the command with one line."""
    import sqlite3

    from gg.record.store import RunStore
    from gg.telemetry.layout import store_path
    from gg.telemetry.store import RunStoreError
    from gg.wire import escaped

    try:
        store = RunStore.at(base, create=create)
    except (RunStoreError, sqlite3.DatabaseError, OSError) as unusable:
        click.echo(f"gg: the run store {escaped(str(store_path(base)))} cannot be used: {unusable}", err=True)
        sys.exit(REFUSED_EXIT if create else INCOMPLETE_EXIT)
    if store.check is not None and store.check.note is not None:
        click.echo(f"gg: note: {store.check.note}.", err=True)
    return store
