"""What differs between the run store's two databases, SQLite and PostgreSQL, and nothing else: the
schema and every query are written once (`schema.py`, the writer, `gg.record.reader`), with `?`
placeholders, and a `Dialect` says the rest.

Rules:
- Queries use `?` placeholders and no `?` or `%` of their own; PostgreSQL's connection
  (`gg.telemetry.postgres`) turns each `?` into `%s`.
- Upserts are `INSERT … ON CONFLICT … DO NOTHING / DO UPDATE`, which both read alike.
- Migrations are templates: `{real}` is a double-precision column (`REAL` in SQLite,
  `DOUBLE PRECISION` in PostgreSQL), `{without_rowid}` SQLite's table option (nothing in
  PostgreSQL). Rendered for SQLite they are the statements shipped before PostgreSQL was.
- The schema version is SQLite's `PRAGMA user_version`, and PostgreSQL's one row of `gg_schema`;
  a migration runs in one transaction holding the store's write lock (SQLite's `BEGIN IMMEDIATE`,
  PostgreSQL's transaction-scoped advisory lock `SCHEMA_LOCK`), so two processes opening a new
  store at once migrate it once.
- `no_limit` is what `LIMIT ?` takes for every row (SQLite's -1, PostgreSQL's NULL).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from gg.telemetry.location import Backend

SCHEMA_LOCK = 0x67675F73  # "gg_s": the advisory lock a PostgreSQL store's migration holds


class Rows(Protocol):
    """What a query answers."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Database(Protocol):
    """A connection to a run store, either database: `?` queries, their rows, a transaction."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...

    def close(self) -> None: ...


@runtime_checkable
class Pipelined(Protocol):
    """A connection that can send a transaction's statements without waiting for each answer
    (PostgreSQL's pipeline mode): a transaction costs one round trip to the server, not one a
    statement."""

    def pipelined(self) -> AbstractContextManager[None]: ...


@dataclass(frozen=True)
class Dialect:
    """One database's spelling of what SQL leaves open (see the module rules)."""

    backend: Backend
    begin: str
    real: str
    without_rowid: str
    no_limit: int | None

    def render(self, statement: str) -> str:
        """A migration's statement in this dialect."""
        return statement.format(real=self.real, without_rowid=self.without_rowid)

    def version(self, db: Database) -> int:
        """The store's schema version; 0 for a database no migration has touched."""
        if self.backend is Backend.SQLITE:
            return int(db.execute("PRAGMA user_version").fetchone()[0])
        # the catalog read as a table (a fresh snapshot), not through the cache `to_regclass` reads
        tables = (
            "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'gg_schema'"
        )
        if db.execute(tables).fetchone()[0] == 0:
            return 0
        row = db.execute("SELECT MAX(version) FROM gg_schema").fetchone()
        return 0 if row[0] is None else int(row[0])

    def set_version(self, db: Database, version: int) -> None:
        """Record the schema version, inside the migration's transaction."""
        if self.backend is Backend.SQLITE:
            db.execute(f"PRAGMA user_version = {int(version)}")
            return
        db.execute("CREATE TABLE IF NOT EXISTS gg_schema (version INTEGER NOT NULL)")
        db.execute("DELETE FROM gg_schema")
        db.execute("INSERT INTO gg_schema (version) VALUES (?)", (version,))

    def holds_table(self, db: Database, name: str) -> bool:
        """Whether the store holds the table `name` (read from the catalog, never cached)."""
        if self.backend is Backend.SQLITE:
            sql = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
        else:
            sql = "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?"
        return int(db.execute(sql, (name,)).fetchone()[0]) > 0

    def lock_schema(self, db: Database) -> None:
        """Hold the store's migration lock until the transaction ends (SQLite's is its write lock)."""
        if self.backend is Backend.POSTGRESQL:
            db.execute(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")


SQLITE = Dialect(Backend.SQLITE, "BEGIN IMMEDIATE", "REAL", " WITHOUT ROWID", -1)
POSTGRESQL = Dialect(Backend.POSTGRESQL, "BEGIN", "DOUBLE PRECISION", "", None)
DIALECTS = {dialect.backend: dialect for dialect in (SQLITE, POSTGRESQL)}


def dialect_of(backend: Backend) -> Dialect:
    """The dialect of a store's backend."""
    return DIALECTS[backend]
