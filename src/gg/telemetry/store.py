"""The run store: every run started under a base directory, in SQLite at `<base>/.gg/runs.db`.

Rules:
- WAL journal, `synchronous=NORMAL`, and one transaction per event: a commit hands the event to
  the operating system before `write` returns, so a process killed with `kill -9` keeps every
  event it wrote (every finished turn included); only a power loss can drop the newest commits,
  and never corrupts the file. A write holds the lock for microseconds, so two runs writing the
  same store at once wait on each other (`busy_timeout`) instead of failing.
- The `runs` row is kept current from the events: `run_started` fills it, every event of a turn
  raises `turns` to that turn (a turn counts from its first event, as `gg show` counts it, so an
  interrupted run reads the same in both), `run_finished` writes the final status and exit code
  (an operator's Ctrl-C writes one too, `interrupted`, exit 130, and a SIGTERM, exit 143). Until
  then a run is `running`; `shown_status` tells `unfinished` when its process on this host is gone
  without writing its end (`kill -9`, a crash, a lost machine): such a run has no exit code.
- `find_run` takes a whole id, a unique prefix (with or without `run-`), or `latest` / `last`.
- `listed` adds to each row the status to show and its tally (`gg.record.tally`), read from the
  run's `model_reply` and `turn_outcome` events alone.
- Opened to be written (`create=True`), the store is made when missing, checked
  (`gg.telemetry.integrity`: a damaged one is refused, naming the way out), and its schema
  migrated (`schema.py`); a store newer than this gg is refused. Opened to be read
  (`create=False`), it is read-only (`gg.record.readonly`): never made, migrated or written,
  and one that does not exist is refused.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from gg.record.readonly import open_read_only, schema_defect
from gg.record.tally import TALLIED, Tally, tally
from gg.telemetry.clock import RUN_ID_PREFIX, parse_timestamp
from gg.telemetry.events import Event, RunFinished, RunStarted
from gg.telemetry.integrity import StoreCheck, StoreDamaged, check_store, damaged
from gg.telemetry.layout import store_path
from gg.telemetry.ndjson import encode_event
from gg.telemetry.schema import MIGRATIONS, SCHEMA_VERSION
from gg.wire import escaped

RUNNING = "running"
INTERRUPTED = "interrupted"
TIMED_OUT = "timed_out"
UNFINISHED = "unfinished"
NEWEST_ALIASES = frozenset({"latest", "last"})
BUSY_TIMEOUT_MS = 10_000
WAL_RETRY_SECS = 0.01
MAX_AMBIGUOUS_SHOWN = 5


class RunStoreError(Exception):
    """The store cannot be used by this gg (damaged, a newer schema, no store where one was
    required)."""


class RunLookupError(LookupError):
    """No run, or more than one, answers a reference."""


@dataclass(frozen=True)
class RunRow:
    """One run as the `runs` table holds it."""

    id: str
    name: str
    config_path: str
    workspace: str
    model: str
    language: str
    started_at: str
    updated_at: str
    finished_at: str | None
    status: str
    exit_code: int | None
    turns: int
    duration_ms: float | None
    final_text: str | None
    message: str | None
    events: int
    pid: int | None
    host: str | None


_COLUMNS = ", ".join(f.name for f in fields(RunRow))
_START_RUN = (
    "INSERT INTO runs (id, name, config_path, workspace, model, language, started_at, updated_at, pid, host)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name,"
    " config_path = excluded.config_path, workspace = excluded.workspace, model = excluded.model,"
    " language = excluded.language, started_at = excluded.started_at,"
    " pid = excluded.pid, host = excluded.host"
)
_ADOPT_RUN = "INSERT OR IGNORE INTO runs (id, started_at, updated_at, pid, host) VALUES (?, ?, ?, ?, ?)"
_TOUCH_RUN = "UPDATE runs SET updated_at = ?, events = ? WHERE id = ?"
_COUNT_TURNS = "UPDATE runs SET turns = MAX(turns, ?) WHERE id = ?"
_FINISH_RUN = (
    "UPDATE runs SET status = ?, exit_code = ?, turns = ?, duration_ms = ?, final_text = ?, message = ?,"
    " finished_at = ? WHERE id = ?"
)
_INSERT_EVENT = (
    "INSERT INTO events (run_id, seq, type, agent_id, turn, timestamp, json) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def process_alive(pid: int) -> bool:
    """Whether a process with this id exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class ListedRun:
    """A run as `gg runs` lists it: its row, the status shown for it, and its tally."""

    row: RunRow
    status: str
    tally: Tally


def elapsed_ms(row: RunRow) -> float | None:
    """How long a run took: its recorded duration, else (a run still going, or killed) the time
    from its start to its last event."""
    if row.duration_ms is not None:
        return row.duration_ms
    start, last = parse_timestamp(row.started_at), parse_timestamp(row.updated_at)
    if start is None or last is None:
        return None
    return (last - start).total_seconds() * 1000


def shown_status(row: RunRow, host: str | None = None, alive: Callable[[int], bool] = process_alive) -> str:
    """The status to show: a `running` row whose process on this host is gone is `unfinished`."""
    if row.status != RUNNING or row.pid is None or row.host != (host or socket.gethostname()):
        return row.status
    return RUNNING if alive(row.pid) else UNFINISHED


class RunStore:
    """The run store: a telemetry `Sink` (write/close) and the query API for `gg runs` / `gg show`."""

    def __init__(
        self,
        path: Path,
        *,
        create: bool = True,
        pid: int | None = None,
        host: str | None = None,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        self.path = path
        self._pid = os.getpid() if pid is None else pid
        self._host = socket.gethostname() if host is None else host
        self._lock = threading.Lock()
        self._next_seq: dict[str, int] = {}
        self.check: StoreCheck | None = None  # how the check on open went (a store opened to write)
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db, self.check = _open_to_write(path, busy_timeout_ms)
        else:
            self._db = _open_to_read(path)

    @classmethod
    def at(cls, base: Path, *, create: bool = True) -> RunStore:
        """The store under a base directory (`<base>/.gg/runs.db`)."""
        return cls(store_path(base), create=create)

    # -- the sink ------------------------------------------------------------------------------

    def write(self, event: Event) -> None:
        """Store one event and bring its run's row up to date, in one transaction."""
        self.restore([(event, encode_event(event))])

    def restore(self, events: Sequence[tuple[Event, str]]) -> None:
        """Store events, each with its wire line as written (`encode_event`), and bring their
        runs' rows up to date, all in one transaction (a rebuild restores a run's file so)."""
        with self._lock:
            seqs: dict[str, int] = {}
            with _transaction(self._db):
                for event, line in events:
                    self._upsert_run(event)
                    seq = seqs[event.run_id] if event.run_id in seqs else self._seq(event.run_id)
                    envelope = (event.type.value, event.agent_id, event.turn, event.timestamp, line)
                    self._db.execute(_INSERT_EVENT, (event.run_id, seq, *envelope))
                    self._db.execute(_TOUCH_RUN, (event.timestamp, seq + 1, event.run_id))
                    seqs[event.run_id] = seq + 1
            self._next_seq.update(seqs)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- queries -------------------------------------------------------------------------------

    def list_runs(self, limit: int = 20) -> list[RunRow]:
        """The newest runs first."""
        return self._rows(f"SELECT {_COLUMNS} FROM runs ORDER BY started_at DESC, id DESC LIMIT ?", limit)

    def listed(
        self, rows: Sequence[RunRow], *, host: str | None = None, alive: Callable[[int], bool] = process_alive
    ) -> list[ListedRun]:
        """Each row with the status shown for it and the tally of its replies and outcomes."""
        return [
            ListedRun(row, shown_status(row, host, alive), tally(self.events(row.id, TALLIED)))
            for row in rows
        ]

    def find_run(self, ref: str) -> RunRow:
        """The run a reference names: a whole id, a unique id prefix, or `latest` / `last`."""
        ref = ref.strip()
        if ref.lower() in NEWEST_ALIASES:
            newest = self.list_runs(1)
            if not newest:
                raise RunLookupError(f"no runs in {escaped(str(self.path))}")
            return newest[0]
        exact = self._rows(f"SELECT {_COLUMNS} FROM runs WHERE id = ?", ref)
        if exact:
            return exact[0]
        return _one_match(ref, self._prefixed(ref))

    def events(self, run_id: str, types: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """A run's events as wire records, in emit order; only those of `types` when given."""
        sql, params = "SELECT json FROM events WHERE run_id = ?", [run_id]
        if types is not None:
            sql += f" AND type IN ({', '.join('?' * len(types))})"
            params.extend(types)
        with self._lock:
            cursor = self._db.execute(sql + " ORDER BY seq", params)
            return [json.loads(text) for (text,) in cursor.fetchall()]

    def settings(self) -> dict[str, Any]:
        """The connection's journal mode, sync level (0 off, 1 normal, 2 full), busy timeout, schema."""
        names = ("journal_mode", "synchronous", "busy_timeout", "user_version")
        with self._lock:
            return {name: self._db.execute(f"PRAGMA {name}").fetchone()[0] for name in names}

    # -- inside --------------------------------------------------------------------------------

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
            self._db.execute(_COUNT_TURNS, (event.turn, event.run_id))

    def _seq(self, run_id: str) -> int:
        known = self._next_seq.get(run_id)
        if known is not None:
            return known
        row = self._db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE run_id = ?", (run_id,))
        return int(row.fetchone()[0])

    def _prefixed(self, ref: str) -> list[RunRow]:
        spelled = ref if ref.startswith(RUN_ID_PREFIX) else RUN_ID_PREFIX + ref
        return self._rows(
            f"SELECT {_COLUMNS} FROM runs WHERE substr(id, 1, ?) = ? OR substr(id, 1, ?) = ?"
            " ORDER BY started_at DESC, id DESC",
            len(ref),
            ref,
            len(spelled),
            spelled,
        )

    def _rows(self, sql: str, *params: Any) -> list[RunRow]:
        with self._lock:
            return [RunRow(*row) for row in self._db.execute(sql, params).fetchall()]


def _one_match(ref: str, matches: list[RunRow]) -> RunRow:
    if not ref or not matches:
        raise RunLookupError(f"no run matches `{escaped(ref)}`")
    if len(matches) > 1:
        shown = ", ".join(f"`{row.id}`" for row in matches[:MAX_AMBIGUOUS_SHOWN])
        more = len(matches) - MAX_AMBIGUOUS_SHOWN
        tail = f" and {more} more" if more > 0 else ""
        raise RunLookupError(f"`{escaped(ref)}` matches {len(matches)} runs: {shown}{tail}")
    return matches[0]


def _open_to_write(path: Path, busy_timeout_ms: int) -> tuple[sqlite3.Connection, StoreCheck]:
    """The store opened to be written: checked (a damaged one refused), in WAL, migrated."""
    # `timeout` is SQLite's busy_timeout: a writer waits this long for another run's commit.
    db = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False)
    try:
        checked = check_store(db, path)
        _use_wal(db, busy_timeout_ms)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        _migrate(db)
    except StoreDamaged as damaged:
        db.close()
        raise RunStoreError(str(damaged)) from None
    except BaseException:
        db.close()
        raise
    return db, checked


def _open_to_read(path: Path) -> sqlite3.Connection:
    """The store opened read-only (`gg.record.readonly`); a missing, damaged or foreign file is
    refused."""
    try:
        with _naming_damage(path):
            db = open_read_only(path)
    except FileNotFoundError as missing:
        raise RunStoreError(str(missing)) from None
    try:
        with _naming_damage(path):
            defect = schema_defect(db)
    except BaseException:
        db.close()
        raise
    if defect is not None:
        db.close()
        raise RunStoreError(f"{escaped(str(path))}: {defect}")
    return db


@contextmanager
def _naming_damage(path: Path) -> Generator[None]:
    """A file SQLite cannot read as a database (not one it merely cannot open, or finds busy) is
    a `RunStoreError` naming the way out."""
    try:
        yield
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError as unreadable:
        raise RunStoreError(damaged(path, str(unreadable))) from None


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


def _migrate(db: sqlite3.Connection) -> None:
    if _version(db) == SCHEMA_VERSION:
        return
    with _transaction(db):
        version = _version(db)  # read again under the write lock: another process may have migrated
        if version > SCHEMA_VERSION:
            raise RunStoreError(f"run store schema {version} is newer than this gg ({SCHEMA_VERSION})")
        for statements in MIGRATIONS[version:]:
            for statement in statements:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


@contextmanager
def _transaction(db: sqlite3.Connection) -> Generator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.in_transaction:  # SQLite rolls back by itself after some failures (a full disk)
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
