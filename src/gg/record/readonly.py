"""How every reader opens a run store: read-only; it never creates, migrates or writes one.

Rules:
- A store that does not exist is `FileNotFoundError`, never an empty store.
- It is opened with SQLite's `mode=ro`, which reads a run being written (WAL) at its last commit.
  Where even that cannot be opened (a read-only mount, or a folder the reader may not write, with
  no `-shm` file beside the store for it to share), it is opened `immutable`: read as the file
  holds it, without locks (nobody can be writing a store that no one may write beside).
- A readable SQLite file that is no run store this gg reads (a newer schema, or tables a run
  store has that it lacks) is `NotARunStore`, saying why; a file SQLite cannot read as a database
  is `sqlite3.DatabaseError`, as SQLite raised it. Each reader words these for its own reader.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gg.telemetry.schema import SCHEMA_VERSION
from gg.wire import escaped

_NO_SHARED_WAL = frozenset({sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY})
"""What `mode=ro` answers when it can neither open nor make the `-shm` file: a read-only mount
says it cannot open the store, a folder the reader may not write that it cannot write it."""
_EXPECTED_TABLES = frozenset({"runs", "events"})


class NotARunStore(Exception):
    """A readable SQLite file that is no run store this gg reads; the message says why."""


def open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the run store at `path`, its schema checked (see the module
    rules)."""
    db = _connected(path)
    try:
        defect = schema_defect(db)
    except BaseException:
        db.close()
        raise
    if defect is not None:
        db.close()
        raise NotARunStore(defect)
    return db


def _connected(path: Path) -> sqlite3.Connection:
    """A read-only connection to the store file at `path`, `mode=ro` else `immutable`."""
    if not path.is_file():
        raise FileNotFoundError(f"no run store at {escaped(str(path))}")
    uri = path.resolve().as_uri()
    try:
        return _opened(f"{uri}?mode=ro")
    except sqlite3.OperationalError as failed:
        if failed.sqlite_errorcode & 0xFF not in _NO_SHARED_WAL:  # the primary code of an extended one
            raise
    return _opened(f"{uri}?mode=ro&immutable=1")


def schema_defect(db: sqlite3.Connection) -> str | None:
    """Why the database `db` is no run store this gg reads; None when it is one."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        return f"its schema ({version}) is newer than this gg reads ({SCHEMA_VERSION})"
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = _EXPECTED_TABLES - tables
    if missing or version < 1:
        names = ", ".join(sorted(missing)) or "a schema version"
        return f"it is an SQLite file but not a gg run store (it lacks {names})"
    return None


def _opened(uri: str) -> sqlite3.Connection:
    """A connection to `uri` that has read the schema: SQLite opens files lazily, so a store that
    cannot be read fails here rather than at the first query."""
    db = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        db.close()
        raise
    return db
