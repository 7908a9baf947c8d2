"""A query of a PostgreSQL run store, under `gg.record.query`'s rules, kept by the server.

Rules:
- The connection is read-only (`gg.telemetry.postgres.connect(read_only=True)`, the store's
  schema checked as every reader checks it). The views are installed as TEMP views of that
  connection in a transaction of their own (`BEGIN READ WRITE`: a TEMP view is the session's and
  is never written to the store), before the query's `READ ONLY` transaction starts.
- One read: text whose first word (after comments and opening parentheses) is not SELECT, WITH,
  VALUES or TABLE is refused before it reaches the server, naming what it would do (a VACUUM:
  rewrite the store, as on SQLite; any other: its first word). The server
  refuses the rest: the query is declared as a cursor, which holds one statement and no write (a
  second statement, a write inside a WITH); the read-only transaction refuses any other write.
- The time bound is the transaction's `statement_timeout`, and the clock while rows are fetched;
  the row and size bounds are `gg.record.query`'s, the rows fetched from the server's cursor a
  batch at a time.
- A number PostgreSQL answers as `numeric` reads as an int when whole, else a float, as SQLite
  answers it; any other error of the server is `BadQuery`, in its words.
"""

from __future__ import annotations

import re
import time
from decimal import Decimal
from itertools import chain
from typing import TYPE_CHECKING, Any, LiteralString, cast

from gg.record.query_answer import (
    REWRITES_THE_STORE,
    BadQuery,
    NotARead,
    QueryAnswer,
    QueryError,
    bounded_answer,
    only_reads,
    past_time_bound,
)
from gg.record.sql_view import statements
from gg.record.view_spelling import POSTGRESQL_SPELLING
from gg.record.views import VIEWS
from gg.telemetry.location import StoreLocation

if TYPE_CHECKING:
    import psycopg

READS = frozenset({"select", "with", "values", "table"})
_WORDED = {"vacuum": REWRITES_THE_STORE}  # a first word whose refusal says more than the word
_FIRST_WORD = re.compile(r"(?:\s+|--[^\n]*|/\*.*?\*/|\()*([A-Za-z_]*)", re.S)
_READ_ONLY = re.compile(r"cannot execute (.+?) in a read-only transaction")
_CURSOR = "gg_query"


def run_on_postgres(location: StoreLocation, sql: str, *, rows: int, seconds: float) -> QueryAnswer:
    """Run one read over the views of the PostgreSQL store at `location` (see the module rules);
    `RunStoreError` when the store cannot be reached or holds no run store this gg reads."""
    from gg.record.reader import open_postgres
    from gg.telemetry.postgres import reaching

    check_first_word(sql)
    db = open_postgres(location)
    try:
        with reaching(location):
            install_views(db.connection)
            return _answer(db.connection, sql, rows, seconds)
    finally:
        db.close()


def check_first_word(sql: str) -> None:
    """`NotARead` for text that does not begin as a read does."""
    match = _FIRST_WORD.match(sql)
    word = match.group(1).lower() if match else ""
    if not word:
        raise NotARead("gg query answers one SELECT (or WITH ... SELECT); this returns no rows")
    if word not in READS:
        raise only_reads(_WORDED.get(word, word))


def install_views(connection: psycopg.Connection[tuple[Any, ...]]) -> None:
    """Every view as a TEMP view of `connection`, committed before any query runs."""
    listed = connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    tables = [str(name) for (name,) in listed.fetchall()]
    connection.execute("BEGIN READ WRITE")
    for statement in statements(VIEWS, POSTGRESQL_SPELLING, tables):
        connection.execute(cast("LiteralString", statement))
    connection.execute("COMMIT")


def _answer(
    connection: psycopg.Connection[tuple[Any, ...]], sql: str, rows: int, seconds: float
) -> QueryAnswer:
    import psycopg

    connection.execute("BEGIN READ ONLY")
    millis = max(1, round(seconds * 1000))
    connection.execute(cast("LiteralString", f"SET LOCAL statement_timeout = {millis}"))
    deadline = time.monotonic() + seconds
    try:
        cursor = connection.cursor(name=_CURSOR)
        cursor.execute(cast("LiteralString", sql))
        plain = (tuple(_plain(value) for value in row) for row in cursor)  # fetched `itersize` at a time
        first = next(plain, None)
        columns = tuple(column.name for column in cursor.description or [])
        ahead = () if first is None else (first,)
        return bounded_answer(
            columns, chain(ahead, plain), rows, lambda: time.monotonic() > deadline, seconds
        )
    except psycopg.errors.QueryCanceled:
        raise past_time_bound(seconds) from None
    except psycopg.DatabaseError as failed:
        if isinstance(failed, psycopg.OperationalError):
            raise  # the server went away: `reaching` names the store
        raise _failure(failed) from None


def _failure(failed: Exception) -> QueryError:
    message = " ".join(str(failed).split("\n", 1)[0].split())
    if "multiple commands" in message:
        return NotARead(f"gg query answers one statement at a time ({message})")
    if "data-modifying" in message:
        return only_reads("write inside a WITH")
    if (refused := _READ_ONLY.search(message)) is not None:
        return only_reads(refused.group(1).lower())
    return BadQuery(message)


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value
