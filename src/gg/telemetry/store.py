"""The run store's writer: every run started under a base directory, written to SQLite at
`<base>/.gg/runs.db` as its events are emitted. It is read back by `gg.record` (`RunReader`).

Rules:
- WAL journal, `synchronous=NORMAL`, and one transaction per event: a commit hands the event to
  the operating system before `write` returns, so a process killed with `kill -9` keeps every
  event it wrote (every finished turn included); only a power loss can drop the newest commits,
  and never corrupts the file. A write holds the lock for microseconds, so two runs writing the
  same store at once wait on each other (`busy_timeout`) instead of failing. A stop (Ctrl-C,
  SIGTERM) landing anywhere in a write leaves the store as it was before the write or after it,
  never half written, and the next write takes its place after every event kept.
- The `runs` row is kept current from the events: `run_started` fills it, every event of a turn
  raises `turns` to that turn (a turn counts from its first event, as `gg show` counts it, so an
  interrupted run reads the same in both), `run_finished` writes the final status and exit code
  (an operator's Ctrl-C writes one too, `interrupted`, exit 130, and a SIGTERM, exit 143). Until
  then the row's status is `running`, with the writer's process id and host.
- Opened, the store is made when missing, checked (`gg.telemetry.integrity`: a damaged one is
  refused, naming the way out), and its schema migrated (`schema.py`); a store newer than this gg
  is refused, naming both versions.
- On PostgreSQL (`gg.telemetry.postgres`) the same statements run, in the same transactions (one
  per event), through the dialect (`gg.telemetry.dialect`); the server keeps what it committed.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from collections.abc import Generator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path

from gg.telemetry.dialect import SQLITE, Database, Dialect, Pipelined, dialect_of
from gg.telemetry.events import Event, RunFinished, RunStarted
from gg.telemetry.integrity import StoreCheck, StoreDamaged, check_store
from gg.telemetry.layout import store_path
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.ndjson import encode_event
from gg.telemetry.schema import MIGRATIONS, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 10_000
WAL_RETRY_SECS = 0.01


class RunStoreError(Exception):
    """The store cannot be used by this gg (damaged, a newer schema, no store where one was
    required)."""


_START_RUN = (
    "INSERT INTO runs (id, name, config_path, workspace, model, language, started_at, updated_at, pid, host)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name,"
    " config_path = excluded.config_path, workspace = excluded.workspace, model = excluded.model,"
    " language = excluded.language, started_at = excluded.started_at,"
    " pid = excluded.pid, host = excluded.host"
)
_ADOPT_RUN = (
    "INSERT INTO runs (id, started_at, updated_at, pid, host) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (id) DO NOTHING"
)
_TOUCH_RUN = "UPDATE runs SET updated_at = ?, events = ? WHERE id = ?"
_COUNT_TURNS = "UPDATE runs SET turns = ? WHERE id = ? AND turns < ?"
_FINISH_RUN = (
    "UPDATE runs SET status = ?, exit_code = ?, turns = ?, duration_ms = ?, final_text = ?, message = ?,"
    " finished_at = ? WHERE id = ?"
)
_INSERT_EVENT = (
    "INSERT INTO events (run_id, seq, type, agent_id, turn, timestamp, json) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


class StoreWriter:
    """The run store opened to be written: a telemetry `Sink` (see the module rules)."""

    def __init__(
        self,
        where: Path | StoreLocation,
        *,
        pid: int | None = None,
        host: str | None = None,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        self.location = where if isinstance(where, StoreLocation) else StoreLocation(Backend.SQLITE, where)
        self.path = self.location.path
        self.dialect: Dialect = dialect_of(self.location.backend)
        self._pid = os.getpid() if pid is None else pid
        self._host = socket.gethostname() if host is None else host
        self._lock = threading.Lock()
        self._next_seq: dict[str, int] = {}
        self.check: StoreCheck | None = None  # how the check on open went (SQLite's)
        if self.location.backend is Backend.SQLITE:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            sqlite_db, self.check = _open_to_write(self.path, busy_timeout_ms)
            self._db: Database = sqlite_db
        else:
            self._db = _open_postgres(self.location)

    @classmethod
    def at(cls, base: Path) -> StoreWriter:
        """The store under a base directory (`<base>/.gg/runs.db`)."""
        return cls(store_path(base))

    def write(self, event: Event) -> None:
        """Store one event and bring its run's row up to date, in one transaction."""
        self.restore([(event, encode_event(event))])

    def restore(self, events: Sequence[tuple[Event, str]]) -> None:
        """Store events, each with its wire line as written (`encode_event`), and bring their
        runs' rows up to date, all in one transaction (a rebuild restores a run's file so)."""
        with self._lock:
            seqs: dict[str, int] = {}
            try:
                with transaction(self._db, self.dialect):
                    for event, line in events:
                        self._upsert_run(event)
                        seq = seqs[event.run_id] if event.run_id in seqs else self._seq(event.run_id)
                        envelope = (event.type.value, event.agent_id, event.turn, event.timestamp, line)
                        self._db.execute(_INSERT_EVENT, (event.run_id, seq, *envelope))
                        self._db.execute(_TOUCH_RUN, (event.timestamp, seq + 1, event.run_id))
                        seqs[event.run_id] = seq + 1
                self._next_seq.update(seqs)
            except BaseException:  # committed or not (a stop may land just after COMMIT): read again
                for run_id in seqs:
                    self._next_seq.pop(run_id, None)
                raise

    @contextmanager
    def connection(self) -> Generator[Database]:
        """The writer's connection, for a reader in this process, one query at a time."""
        with self._lock:
            yield self._db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _upsert_run(self, event: Event) -> None:
        payload, at = event.payload, event.timestamp
        if isinstance(payload, RunStarted):
            fields = (payload.name, payload.config_path, payload.workspace, payload.model, payload.language)
            self._db.execute(_START_RUN, (event.run_id, *fields, at, at, self._pid, self._host))
            return
        self._db.execute(_ADOPT_RUN, (event.run_id, at, at, self._pid, self._host))
        if isinstance(payload, RunFinished):
            ending = (
                payload.status,
                payload.exit_code,
                payload.turns,
                payload.duration_ms,
                payload.final_text,
            )
            self._db.execute(_FINISH_RUN, (*ending, payload.message, at, event.run_id))
        elif event.turn > 0:
            self._db.execute(_COUNT_TURNS, (event.turn, event.run_id, event.turn))

    def _seq(self, run_id: str) -> int:
        known = self._next_seq.get(run_id)
        if known is not None:
            return known
        row = self._db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE run_id = ?", (run_id,))
        return int(row.fetchone()[0])


def _open_to_write(path: Path, busy_timeout_ms: int) -> tuple[sqlite3.Connection, StoreCheck]:
    """The store opened to be written: checked (a damaged one refused), in WAL, migrated."""
    # `timeout` is SQLite's busy_timeout: a writer waits this long for another run's commit.
    db = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False)
    try:
        checked = check_store(db, path)
        _use_wal(db, busy_timeout_ms)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        migrate(db)
    except StoreDamaged as damaged:
        db.close()
        raise RunStoreError(str(damaged)) from None
    except BaseException:
        db.close()
        raise
    return db, checked


def _use_wal(db: sqlite3.Connection, busy_timeout_ms: int) -> None:
    """Switch a new store to WAL (the mode persists). SQLite refuses the switch at once, without
    waiting, while another process holds the fresh file, so the switch is retried until the busy
    timeout is spent."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_SECS)


def _open_postgres(location: StoreLocation) -> Database:
    """The PostgreSQL store opened to be written: reached, migrated."""
    from gg.telemetry.postgres import connect

    db = connect(location)
    try:
        migrate(db, dialect_of(Backend.POSTGRESQL))
    except BaseException:
        db.close()
        raise
    return db


def migrate(db: Database, dialect: Dialect = SQLITE) -> None:
    """Bring the store's schema to this gg's, under its write lock; refuse a newer one, naming
    both versions."""
    if dialect.version(db) == SCHEMA_VERSION:
        return
    with transaction(db, dialect):
        dialect.lock_schema(db)
        version = dialect.version(db)  # read again under the lock: another process may have migrated
        if version > SCHEMA_VERSION:
            raise RunStoreError(f"run store schema {version} is newer than this gg ({SCHEMA_VERSION})")
        for statements in MIGRATIONS[version:]:
            for statement in statements:
                db.execute(dialect.render(statement))
        dialect.set_version(db, SCHEMA_VERSION)


@contextmanager
def transaction(db: Database, dialect: Dialect = SQLITE) -> Generator[None]:
    """One transaction holding the store's write lock, committed when the block ends, rolled back
    when it raises. A stop (Ctrl-C, SIGTERM) may land at any statement, its `BEGIN` and `COMMIT`
    included: the transaction it cut short is rolled back whole, never left open for the next."""
    _roll_back(db)  # one a second stop left open, landing on its rollback
    with db.pipelined() if isinstance(db, Pipelined) else nullcontext():
        try:
            db.execute(dialect.begin)
            yield
            db.execute("COMMIT")
        except BaseException:
            _roll_back(db)
            raise


def _roll_back(db: Database) -> None:
    """Roll back what is still open: SQLite rolls back by itself after some failures (a full
    disk), and a connection the server dropped has nothing left to roll back."""
    if not db.in_transaction:
        return
    with suppress(RunStoreError):
        db.execute("ROLLBACK")
