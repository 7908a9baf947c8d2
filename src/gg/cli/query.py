"""`gg query`: one SQL read over the views of the run store (`gg.record.views`), printed as a
table, `--json` or `--csv`; and the views' catalogue `gg schema --store` prints.

The store is `--store URL` / `GG_STORE` (`gg.telemetry.store_option`), SQLite or PostgreSQL.
Exit codes (`gg.exits`): 0 the answer was printed (a row bound that cut it is said); 2 the query
was refused before it ran (it would write, attach or set a PRAGMA; it is not one statement; the
database cannot run it, which names its error and every view's columns), or `--store` names no
run store; 1 the query ran past its time bound and was stopped, or the store cannot be read or
reached.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT
from gg.record.query_bounds import DEFAULT_ROWS, DEFAULT_SECONDS
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.store_option import STORE_OPTION

if TYPE_CHECKING:
    from gg.record.query_answer import QueryAnswer

SCHEMA = 1  # the version of the `--json` document
ENGINES = {Backend.SQLITE: "SQLite", Backend.POSTGRESQL: "PostgreSQL"}


@click.command()
@click.argument("sql")
@STORE_OPTION
@click.option(
    "--limit",
    default=DEFAULT_ROWS,
    show_default=True,
    type=click.IntRange(min=1),
    help="The most rows printed.",
)
@click.option(
    "--timeout",
    default=DEFAULT_SECONDS,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds the query may run before it is stopped.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the answer as CSV.")
def query(sql: str, where: StoreLocation, limit: int, timeout: float, as_json: bool, as_csv: bool) -> None:
    """Run one SQL SELECT over the run store's views (gg schema --store lists them) and print
    its rows."""
    from gg.record.query import run_query
    from gg.record.query_answer import AnswerTooLarge, BadQuery, NotARead, PastTimeBound

    if as_json and as_csv:
        raise click.UsageError("--json and --csv each print the answer; choose one")
    store_there(where, "gg query")
    try:
        answer = run_query(where, sql, rows=limit, seconds=timeout)
    except NotARead as refused:
        _fail(f"gg query: {refused}", REFUSED_EXIT)
    except BadQuery as bad:
        engine = ENGINES[where.backend]
        _fail(f"gg query: {engine} cannot run this query: {bad}\n{views_in_brief()}", REFUSED_EXIT)
    except PastTimeBound as slow:
        _fail(f"gg query: {slow}; --timeout SECONDS gives it longer", INCOMPLETE_EXIT)
    except AnswerTooLarge as large:
        _fail(f"gg query: {large}", INCOMPLETE_EXIT)
    except Exception as unusable:  # the store's own faults, worded in `_unusable`
        _unusable(where, unusable, "gg query")
    _print(answer, as_json, as_csv)


def store_there(where: StoreLocation, command: str) -> None:
    """An SQLite store's file must be there (a PostgreSQL server says for its own); none ends the
    command, exit 2."""
    if where.backend is Backend.SQLITE and not where.path.is_file():
        _fail(f"{command}: there is no run store at {where.shown}", REFUSED_EXIT)


def _unusable(where: StoreLocation, failure: Exception, command: str) -> NoReturn:
    import sqlite3

    from gg.record.readonly import NotARunStore
    from gg.telemetry.integrity import way_out
    from gg.telemetry.postgres import NoStoreThere, StoreUnreachable
    from gg.telemetry.store import RunStoreError

    shown = where.shown
    if isinstance(failure, NotARunStore | FileNotFoundError):
        _fail(f"{command}: {shown} is not a run store this gg reads: {failure}", REFUSED_EXIT)
    if isinstance(failure, NoStoreThere):
        _fail(f"{command}: {failure}", REFUSED_EXIT)
    if isinstance(failure, StoreUnreachable):
        _fail(f"{command}: {failure}", INCOMPLETE_EXIT)
    if isinstance(failure, RunStoreError):
        _fail(f"{command}: {failure}", REFUSED_EXIT)
    if isinstance(failure, sqlite3.DatabaseError):
        _fail(
            f"{command}: the run store {shown} cannot be read: {failure}; {way_out(where.path)}",
            REFUSED_EXIT,
        )
    raise failure


def views_in_brief() -> str:
    """Every view and its columns, one line each, for a query SQLite could not run."""
    from gg.record.views import VIEWS

    lines = [f"  {view.name}: {', '.join(view.column_names)}" for view in VIEWS]
    return "the views and their columns (gg schema --store says what each means):\n" + "\n".join(lines)


def _print(answer: QueryAnswer, as_json: bool, as_csv: bool) -> None:
    if as_json:
        import json

        rows = [[_plain(value) for value in row] for row in answer.rows]
        document = {
            "schema": SCHEMA,
            "columns": list(answer.columns),
            "rows": rows,
            "limit": answer.limit,
            "truncated": answer.truncated,
        }
        click.echo(json.dumps(document, indent=2, ensure_ascii=True))
    elif as_csv:
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(answer.columns)
        writer.writerows(["" if value is None else _plain(value) for value in row] for row in answer.rows)
        if answer.truncated:
            click.echo(f"gg query: cut at the row bound ({answer.limit:,}); --limit N raises it", err=True)
    else:
        from rich.console import Console

        from gg.terminal.answer import render_answer

        render_answer(answer, Console(highlight=False))


def _plain(value: Any) -> Any:
    """A value as JSON and CSV hold it: bytes as their hex digits."""
    return value.hex() if isinstance(value, bytes) else value


def print_views(where: StoreLocation) -> None:
    """`gg schema --store`: the views installed on the store at `where`, each column's meaning."""
    from rich.console import Console

    from gg.record.query import run_query
    from gg.record.views import VIEWS
    from gg.terminal.answer import render_views

    store_there(where, "gg schema")
    try:
        # every view installs and answers on this store
        run_query(where, " UNION ALL ".join(f"SELECT 1 FROM {view.name} WHERE 1 = 0" for view in VIEWS))
    except Exception as unusable:  # the store's own faults, worded in `_unusable`
        _unusable(where, unusable, "gg schema")
    render_views(VIEWS, Console(highlight=False))


def _fail(message: str, code: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)
