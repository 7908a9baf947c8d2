"""A query of the run store: one read over the views (`gg.record.views`), bounded in rows and time.

Rules:
- The store is opened read-only (`gg.record.readonly`, SQLite's `mode=ro`), the views installed as
  TEMP views of that connection, then `PRAGMA query_only` set and an authorizer installed that
  lets a statement read and call functions and nothing else: a write, an ATTACH, a PRAGMA, a
  transaction is refused by SQLite itself while it prepares the statement, before anything runs
  (`NotARead`). The text is never judged by pattern: SQLite decides what it does.
- A VACUUM is refused as what it would do (rewrite the store, or write a copy of it to a file
  with INTO), not as the ATTACH SQLite makes for it as it starts: the program SQLite compiles for
  the text (its EXPLAIN) holds the Vacuum instruction.
- One statement: a second one after the first is refused, as is text that returns no rows.
- Rows are bounded (`rows`): the answer holds at most that many and says when there were more.
  Time is bounded (`seconds`): a query still running past it, its rows fetched included, is
  stopped (`PastTimeBound`). Size is bounded: no value may be longer than `MAX_ANSWER_BYTES`
  (SQLite's own length limit, so a huge value is never made), nor the answer's texts and bytes
  together (`AnswerTooLarge`), so an answer is never bigger than memory can hold.
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

from gg.record.query_answer import (
    MAX_ANSWER_BYTES,
    REWRITES_THE_STORE,
    TOO_LARGE,
    AnswerTooLarge,
    BadQuery,
    NotARead,
    QueryAnswer,
    QueryError,
    bounded_answer,
    copies_the_store,
    only_reads,
    past_time_bound,
)
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
_VERBS = {
    "INSERT": "insert", "UPDATE": "update", "DELETE": "delete", "ATTACH": "attach a database",
    "DETACH": "detach a database", "PRAGMA": "run a PRAGMA", "TRANSACTION": "begin or end a transaction",
    "SAVEPOINT": "set a savepoint", "ALTER_TABLE": "alter a table", "REINDEX": "reindex",
    "ANALYZE": "analyze", "CREATE_VTABLE": "create a virtual table", "DROP_VTABLE": "drop a virtual table",
}  # fmt: skip
_MADE = ("TABLE", "VIEW", "INDEX", "TRIGGER", "TEMP_TABLE", "TEMP_VIEW", "TEMP_INDEX", "TEMP_TRIGGER")
_ACTIONS = {
    code: verb
    for name, verb in [
        *_VERBS.items(),
        *(
            (f"{how}_{made}", f"{how.lower()} a {made.lower().replace('_', ' ')}")
            for how in ("CREATE", "DROP")
            for made in _MADE
        ),
    ]
    if (code := getattr(sqlite3, f"SQLITE_{name}", None)) is not None
}
_CATALOGUES = frozenset({"sqlite_master", "sqlite_temp_master"})  # a PRAGMA function changes one too


class Guard:
    """The authorizer of a query connection: reads pass, everything else is denied and noted,
    the file of a denied ATTACH apart (`attached`)."""

    def __init__(self) -> None:
        self.denied: list[str] = []
        self.attached: list[str] = []

    def __call__(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, trigger: str | None
    ) -> int:
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _DENIED_FUNCTIONS:
            self.denied.append(f"call {arg2}")
            return sqlite3.SQLITE_DENY
        if action in _READS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_ATTACH:
            self.attached.append(arg1 or "")
        what = "change the schema" if arg1 in _CATALOGUES else _ACTIONS.get(action, f"do action {action}")
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
        db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_ANSWER_BYTES)
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
        columns = tuple(str(d[0]) for d in cursor.description)
        return bounded_answer(columns, cursor, rows, lambda: clock() > deadline, seconds)
    except sqlite3.ProgrammingError as refused:
        raise NotARead(f"gg query answers one statement at a time ({refused})") from None
    except sqlite3.DatabaseError as failed:
        raise _failure(failed, guard, seconds, _vacuum(db, guard, sql)) from None
    finally:
        db.set_progress_handler(None, 0)


def _vacuum(db: sqlite3.Connection, guard: Guard, sql: str) -> str | None:
    """What `sql` would do in words when SQLite compiles it to a VACUUM, which attaches a database
    itself as it starts (a plain one the empty name, one INTO its file); None for anything else."""
    if not guard.attached:
        return None
    try:
        program = db.execute(f"EXPLAIN {sql}").fetchall()  # compiled, never run
    except sqlite3.Error:
        return None
    vacuum = next((step for step in program if step[1] == "Vacuum"), None)
    if vacuum is None:
        return None
    into = vacuum[3]  # the register holding the INTO file; 0 without one
    return REWRITES_THE_STORE if not into else copies_the_store(guard.attached[0])


def _failure(failed: sqlite3.DatabaseError, guard: Guard, seconds: float, vacuum: str | None) -> QueryError:
    if guard.denied:
        return only_reads(vacuum or guard.denied[0])
    if isinstance(failed, sqlite3.OperationalError) and str(failed) == "interrupted":
        return past_time_bound(seconds)
    if isinstance(failed, sqlite3.DataError) and "too big" in str(failed):
        return AnswerTooLarge(TOO_LARGE)
    return BadQuery(str(failed))
