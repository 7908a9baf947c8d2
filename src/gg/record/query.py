"""A query of the run store: one read over the views (`gg.record.views`), bounded in rows and time.

Rules:
- The store is opened read-only (`gg.record.readonly`, SQLite's `mode=ro`), the views installed as
  TEMP views of that connection, then `PRAGMA query_only` set and an authorizer installed that
  lets a statement read and call functions and nothing else: a write, an ATTACH, a PRAGMA, a
  transaction is refused by SQLite itself while it prepares the statement, before anything runs
  (`NotARead`). The text is never judged by pattern: SQLite decides what it does.
- One statement: a second one after the first is refused, as is text that returns no rows.
- Rows are bounded (`rows`): the answer holds at most that many and says when there were more.
  Time is bounded (`seconds`): a query still running past it, its rows fetched included, is
  stopped (`PastTimeBound`).
- A query SQLite cannot run (a syntax error, an unknown column or view) is `BadQuery`, with
  SQLite's own words.
- A PostgreSQL store is queried under the same rules, kept by the server
  (`gg.record.postgres_query`); both answer and refuse alike (`gg.record.query_answer`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from gg.record.query_answer import BadQuery, NotARead, PastTimeBound, QueryAnswer, QueryError, only_reads
from gg.record.query_bounds import DEFAULT_ROWS, DEFAULT_SECONDS
from gg.record.readonly import open_read_only
from gg.record.sql_view import statements
from gg.record.view_spelling import SQLITE_SPELLING
from gg.record.views import VIEWS
from gg.telemetry.location import Backend, StoreLocation

PROGRESS_STEPS = 1_000  # SQLite instructions between two looks at the clock
_READS = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
)
_DENIED_FUNCTIONS = frozenset({"load_extension", "readfile", "writefile"})
_ACTIONS = {
    code: name.removeprefix("SQLITE_").lower().replace("_", " ")
    for name in (
        "SQLITE_INSERT", "SQLITE_UPDATE", "SQLITE_DELETE", "SQLITE_ATTACH", "SQLITE_DETACH",
        "SQLITE_PRAGMA", "SQLITE_TRANSACTION", "SQLITE_SAVEPOINT", "SQLITE_ALTER_TABLE",
        "SQLITE_CREATE_TABLE", "SQLITE_CREATE_VIEW", "SQLITE_CREATE_INDEX", "SQLITE_CREATE_TRIGGER",
        "SQLITE_CREATE_TEMP_TABLE", "SQLITE_CREATE_TEMP_VIEW", "SQLITE_CREATE_TEMP_INDEX",
        "SQLITE_CREATE_TEMP_TRIGGER", "SQLITE_CREATE_VTABLE", "SQLITE_DROP_TABLE", "SQLITE_DROP_VIEW",
        "SQLITE_DROP_INDEX", "SQLITE_DROP_TRIGGER", "SQLITE_DROP_TEMP_TABLE", "SQLITE_DROP_TEMP_VIEW",
        "SQLITE_DROP_TEMP_INDEX", "SQLITE_DROP_TEMP_TRIGGER", "SQLITE_DROP_VTABLE", "SQLITE_REINDEX",
        "SQLITE_ANALYZE",
    )
    if (code := getattr(sqlite3, name, None)) is not None
}  # fmt: skip


class Guard:
    """The authorizer of a query connection: reads pass, everything else is denied and noted."""

    def __init__(self) -> None:
        self.denied: list[str] = []

    def __call__(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, trigger: str | None
    ) -> int:
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _DENIED_FUNCTIONS:
            self.denied.append(f"call {arg2}")
            return sqlite3.SQLITE_DENY
        if action in _READS:
            return sqlite3.SQLITE_OK
        what = _ACTIONS.get(action, f"action {action}")
        self.denied.append(what if arg1 is None else f"{what} ({arg1})")
        return sqlite3.SQLITE_DENY


def open_for_queries(path: Path) -> tuple[sqlite3.Connection, Guard]:
    """The store at `path` opened read-only, the views installed, and guarded to read alone.
    `FileNotFoundError`, `NotARunStore` and `sqlite3.DatabaseError` as `open_read_only`."""
    db = open_read_only(path)
    try:
        tables = [name for (name,) in db.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")]
        for statement in statements(VIEWS, SQLITE_SPELLING, tables):
            db.execute(statement)
        db.execute("PRAGMA query_only = ON")
    except BaseException:
        db.close()
        raise
    guard = Guard()
    db.set_authorizer(guard)
    return db, guard


def run_query(
    where: Path | StoreLocation,
    sql: str,
    *,
    rows: int = DEFAULT_ROWS,
    seconds: float = DEFAULT_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> QueryAnswer:
    """Run one read over the views of the store at `where` (see the module rules); a PostgreSQL
    store's is `gg.record.postgres_query`'s."""
    if isinstance(where, StoreLocation) and where.backend is Backend.POSTGRESQL:
        from gg.record.postgres_query import run_on_postgres

        return run_on_postgres(where, sql, rows=rows, seconds=seconds)
    path = where if isinstance(where, Path) else where.path
    db, guard = open_for_queries(path)
    try:
        return _answer(db, guard, sql, rows, seconds, clock)
    finally:
        db.close()


def _answer(
    db: sqlite3.Connection, guard: Guard, sql: str, rows: int, seconds: float, clock: Callable[[], float]
) -> QueryAnswer:
    deadline = clock() + seconds
    db.set_progress_handler(lambda: int(clock() > deadline), PROGRESS_STEPS)
    try:
        cursor = db.execute(sql)
        if cursor.description is None:
            raise NotARead("gg query answers one SELECT (or WITH ... SELECT); this returns no rows")
        got = cursor.fetchmany(rows + 1)
    except sqlite3.ProgrammingError as refused:
        raise NotARead(f"gg query answers one statement at a time ({refused})") from None
    except sqlite3.DatabaseError as failed:
        raise _failure(failed, guard, seconds) from None
    finally:
        db.set_progress_handler(None, 0)
    columns = tuple(str(d[0]) for d in cursor.description)
    return QueryAnswer(columns, [tuple(row) for row in got[:rows]], rows, len(got) > rows)


def _failure(failed: sqlite3.DatabaseError, guard: Guard, seconds: float) -> QueryError:
    if guard.denied:
        return only_reads(guard.denied[0])
    if isinstance(failed, sqlite3.OperationalError) and str(failed) == "interrupted":
        return PastTimeBound(f"the query ran past its time bound ({seconds:g} s) and was stopped")
    return BadQuery(str(failed))
