"""A run store on PostgreSQL (psycopg 3, the `postgres` extra): its connections, for the writer
and for readers.

Rules:
- A connection runs in autocommit; the writer opens each event's transaction itself (`BEGIN`),
  as it does on SQLite, so a finished turn is committed before the next event is written, and a
  run cut short keeps every finished turn. The writer's commits are `synchronous_commit = off`,
  as SQLite's are `synchronous = NORMAL`: a commit is the server's once it returns (a gg killed
  with `kill -9` loses none), and only the server's own crash can drop its newest commits (never
  corrupting the store), a fraction of a second of them. Several processes write one store at once: each run's
  events are written by the one process running it, under the `(run_id, seq)` primary key.
- A transaction's statements go to the server in pipeline mode (`pipelined`): one round trip a
  transaction, so an event costs one round trip whatever the statements it takes.
- Every query is written with `?` placeholders (`gg.telemetry.dialect`); `execute` turns them
  into psycopg's `%s`.
- A server that cannot be reached, refuses the login, or goes away is `StoreUnreachable`: the URL
  without its password, and the reason the server or the network gave. Without psycopg it is a
  `RunStoreError` naming the extra to install.
- psycopg's own log lines (`error ignored terminating <psycopg.Pipeline [BAD]>` as a lost
  connection is torn down) never reach the terminal: the `psycopg` logger is given a handler
  that drops them, so Python's last-resort handler never prints them; what the failure means is
  gg's to say (`StoreUnreachable`, a loss of the run's record).
- A reader's connection is read-only (`default_transaction_read_only`): it never creates,
  migrates or writes a store; a database holding no run store is `NoStoreThere`.
"""

from __future__ import annotations

import logging
from collections.abc import Generator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, LiteralString, cast

from gg.telemetry.location import StoreLocation
from gg.telemetry.store import RunStoreError

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT_SECS = 10
EXTRA = "pip install 'gg[postgres]'"
_DRIVER_LINES = logging.NullHandler()  # where psycopg's own log lines go (see the module rules)


class StoreUnreachable(RunStoreError):
    """The PostgreSQL server cannot be reached, refused the login, or went away."""


class NoStoreThere(RunStoreError):
    """The database holds no run store (a reader never makes one)."""


class PostgresDb:
    """One autocommit psycopg connection, queried with `?` placeholders (see the module rules)."""

    def __init__(self, connection: psycopg.Connection[tuple[Any, ...]], location: StoreLocation) -> None:
        self._connection = connection
        self._location = location

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        if self._connection.closed:
            return False
        return self._connection.info.transaction_status is not TransactionStatus.IDLE

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[tuple[Any, ...]]:
        with reaching(self._location):
            # every query is gg's own text (see the module rules); psycopg asks for a literal one
            return self._connection.execute(cast("LiteralString", sql.replace("?", "%s")), list(parameters))

    @contextmanager
    def pipelined(self) -> Generator[None]:
        """The block's statements sent without waiting for each answer; a failure met at the end
        (where the server answers them all) is `StoreUnreachable` or the error as psycopg raised
        it, and leaves no transaction open."""
        try:
            with reaching(self._location), self._connection.pipeline():
                yield
        except BaseException:
            if self.in_transaction:
                with suppress(Exception):
                    self._connection.execute("ROLLBACK")
            raise

    @property
    def connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        """The psycopg connection itself, for a reader running a query's text as written (no `?`
        placeholders: `gg query`'s)."""
        return self._connection

    def close(self) -> None:
        self._connection.close()


def connect(location: StoreLocation, *, read_only: bool = False) -> PostgresDb:
    """A connection to the store at `location` (a PostgreSQL one), read-only or to write (see the
    module rules); `StoreUnreachable` when the server cannot be reached or refuses the login."""
    db = _connected(location)
    setting = "default_transaction_read_only = on" if read_only else "synchronous_commit = off"
    try:
        db.execute(f"SET {setting}")
    except BaseException:
        db.close()
        raise
    return db


def _connected(location: StoreLocation) -> PostgresDb:
    try:
        import psycopg
    except ImportError:
        raise RunStoreError(f"the run store {location.shown} is on PostgreSQL: {EXTRA}") from None
    assert location.url is not None
    logging.getLogger("psycopg").addHandler(_DRIVER_LINES)  # once: a handler is added only once
    with reaching(location):
        connection = psycopg.connect(location.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECS)
    return PostgresDb(connection, location)


@contextmanager
def reaching(location: StoreLocation) -> Generator[None]:
    """psycopg's failures to reach or keep the server, as `StoreUnreachable` naming the store."""
    import psycopg

    try:
        yield
    except psycopg.OperationalError as failed:
        raise StoreUnreachable(
            f"the run store {location.shown} cannot be reached: {_reason(failed)}"
        ) from None


def _reason(failed: Exception) -> str:
    """psycopg's message on one line, without the URL it may repeat."""
    return " ".join(str(failed).split()) or type(failed).__name__
