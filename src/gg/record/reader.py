"""The one reader of a run store: its runs, newest first, and each run's events as the wire records
they were written as. `gg runs`, `gg show`, the console, `gg.open_store` and the OpenTelemetry
export all read through it.

Rules:
- A reader only reads. Its queries take their connection from `Connections`: one held open for
  the reader's life (`open_reader`, and a store one process writes and reads back), or one opened
  per query (the console, which sees a store made or rebuilt while it serves).
- `open_reader` opens the store read-only (`gg.record.readonly` for SQLite, a read-only
  connection for PostgreSQL): never made, migrated or written. None at the path (or in the
  database), a file SQLite cannot read as a database, or one that is no run store this gg reads
  is `RunStoreError`, naming the store (a damaged one with the way out).
- The queries are the same on both databases; the dialect (`gg.telemetry.dialect`) says what
  differs.
- `find_run` takes a whole id, a unique prefix (with or without `run-`), or `latest` / `last`.
- A run's events come back as `Record`s (`gg.record.envelope`): each wire record as written, its
  envelope read once; a stored event that is not a JSON object reads as `unreadable`.
- `listed` adds to each row the status to show and its tally (`gg.record.tally`), read from the
  run's `model_reply`, `code_execution`, `turn_outcome` and `agent_spawned` events alone; the
  tallies of many runs are read in one query per `BATCH` runs.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Generator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from gg.record.envelope import Record, record_of
from gg.record.readonly import NotARunStore, open_read_only
from gg.record.runs import ListedRun, RunRow, process_alive, shown_status
from gg.record.tally import TALLIED, Tally, tally
from gg.telemetry.clock import RUN_ID_PREFIX
from gg.telemetry.dialect import SQLITE, Database, Dialect, dialect_of
from gg.telemetry.integrity import damaged
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.schema import SCHEMA_VERSION
from gg.telemetry.store import RunStoreError
from gg.wire import escaped

if TYPE_CHECKING:
    from gg.telemetry.postgres import PostgresDb

NEWEST_ALIASES = frozenset({"latest", "last"})
MAX_AMBIGUOUS_SHOWN = 5
LISTED_RUNS = 20  # how many runs `list_runs` gives unless told
EVERY_RUN = -1  # every run, for `list_runs`
BATCH = 500  # runs read in one query
AGENT_NAMING = ("run_started", "agent_spawned", "model_reply", "code_execution", "turn_outcome")
"""Events that name every agent of a run: read through the (run, type) index to count them."""

_COLUMNS = ", ".join(f.name for f in fields(RunRow))
_RECORDS_OF_RUNS = (
    "SELECT run_id, json FROM events WHERE run_id IN ({runs}) AND type IN ({types}) ORDER BY run_id, seq"
)
_AGENTS_OF_RUNS = (
    "SELECT run_id, COUNT(DISTINCT agent_id) FROM events WHERE run_id IN ({runs}) AND type IN ({types})"
    " GROUP BY run_id"
)


class RunLookupError(LookupError):
    """No run, or more than one, answers a reference."""


class Connections(Protocol):
    """Where a reader's queries get their connection, and how it lets it go."""

    def connection(self) -> AbstractContextManager[Database]: ...

    def close(self) -> None: ...


class HeldConnection:
    """One connection held open, used by one query at a time."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._lock = threading.Lock()

    @contextmanager
    def connection(self) -> Generator[Database]:
        with self._lock:
            yield self._db

    def close(self) -> None:
        with self._lock:
            self._db.close()


@dataclass(frozen=True)
class StoreState:
    """A token that changes whenever any run changes (runs, newest write, events)."""

    runs: int
    updated_at: str
    events: int

    @property
    def token(self) -> str:
        return f"{self.runs}:{self.events}:{self.updated_at}"


class RunReader:
    """Read-only queries of one run store (see the module rules)."""

    def __init__(
        self, path: Path, connections: Connections, *, dialect: Dialect = SQLITE, where: str | None = None
    ) -> None:
        self.path = path
        self.dialect = dialect
        self.where = escaped(str(path)) if where is None else where  # the store as it may be printed
        self._connections = connections

    def list_runs(self, limit: int = LISTED_RUNS) -> list[RunRow]:
        """The newest runs first; every run for `EVERY_RUN`."""
        bound = self.dialect.no_limit if limit == EVERY_RUN else limit
        return self._rows(f"SELECT {_COLUMNS} FROM runs ORDER BY started_at DESC, id DESC LIMIT ?", bound)

    def run(self, run_id: str) -> RunRow | None:
        """The run with this very id; None when the store holds none."""
        rows = self._rows(f"SELECT {_COLUMNS} FROM runs WHERE id = ?", run_id)
        return rows[0] if rows else None

    def find_run(self, ref: str) -> RunRow:
        """The run a reference names: a whole id, a unique id prefix, or `latest` / `last`."""
        ref = ref.strip()
        if ref.lower() in NEWEST_ALIASES:
            newest = self.list_runs(1)
            if not newest:
                raise RunLookupError(f"no runs in {self.where}")
            return newest[0]
        exact = self.run(ref)
        return exact if exact is not None else _one_match(ref, self._prefixed(ref))

    def listed(
        self, rows: Sequence[RunRow], *, host: str | None = None, alive: Callable[[int], bool] = process_alive
    ) -> list[ListedRun]:
        """Each row with the status shown for it and the tally of its replies and outcomes."""
        tallies = self.tallies([row.id for row in rows])
        return [ListedRun(row, shown_status(row, host, alive), tallies[row.id]) for row in rows]

    def events(self, run_id: str, types: Sequence[str] | None = None) -> list[Record]:
        """A run's events as records, in emit order; only those of `types` when given."""
        sql, params = "SELECT json FROM events WHERE run_id = ?", [run_id]
        if types is not None:
            sql += f" AND type IN ({_marks(types)})"
            params.extend(types)
        with self._connections.connection() as db:
            texts = db.execute(sql + " ORDER BY seq", params).fetchall()
        return [record_of(text) for (text,) in texts]

    def tallies(self, run_ids: Sequence[str]) -> dict[str, Tally]:
        """Each run's tally (`gg.record.tally`)."""
        records: dict[str, list[Record]] = {run_id: [] for run_id in run_ids}
        for run_id, text in self._of_runs(_RECORDS_OF_RUNS, run_ids, TALLIED):
            records[run_id].append(record_of(text))
        return {run_id: tally(kept) for run_id, kept in records.items()}

    def agents_counted(self, run_ids: Sequence[str]) -> dict[str, int]:
        """How many agents each run's events name (0 for a run with none)."""
        counted = dict.fromkeys(run_ids, 0)
        for run_id, count in self._of_runs(_AGENTS_OF_RUNS, run_ids, AGENT_NAMING):
            counted[run_id] = int(count)
        return counted

    def state(self) -> StoreState:
        with self._connections.connection() as db:
            runs, updated, events = db.execute(
                "SELECT COUNT(*), COALESCE(MAX(updated_at), ''), COALESCE(SUM(events), 0) FROM runs"
            ).fetchone()
        return StoreState(int(runs), str(updated), int(events))

    def settings(self) -> dict[str, Any]:
        """The connection's journal mode, sync level (0 off, 1 normal, 2 full), busy timeout, schema."""
        names = ("journal_mode", "synchronous", "busy_timeout", "user_version")
        with self._connections.connection() as db:
            return {name: db.execute(f"PRAGMA {name}").fetchone()[0] for name in names}

    def close(self) -> None:
        self._connections.close()

    def _of_runs(self, sql: str, run_ids: Sequence[str], types: Sequence[str]) -> list[tuple[Any, ...]]:
        """The rows of `sql` over `run_ids` and `types`, `BATCH` runs a query."""
        out: list[tuple[Any, ...]] = []
        for start in range(0, len(run_ids), BATCH):
            batch = list(run_ids[start : start + BATCH])
            query = sql.format(runs=_marks(batch), types=_marks(types))
            with self._connections.connection() as db:
                out.extend(db.execute(query, [*batch, *types]).fetchall())
        return out

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
        with self._connections.connection() as db:
            return [RunRow(*row) for row in db.execute(sql, params).fetchall()]


def open_reader(where: Path | StoreLocation) -> RunReader:
    """The run store at `where` (a file, or a location of either database), opened read-only and
    held (see the module rules)."""
    if isinstance(where, Path) or where.backend is Backend.SQLITE:
        path = where if isinstance(where, Path) else where.path
        return RunReader(path, held_read_only(path))
    return RunReader(where.path, held_postgres(where), dialect=dialect_of(where.backend), where=where.shown)


def held_postgres(location: StoreLocation) -> HeldConnection:
    """A held read-only connection to the PostgreSQL store at `location`; `RunStoreError` when it
    cannot be reached, holds no run store, or one newer than this gg."""
    return HeldConnection(open_postgres(location))


def open_postgres(location: StoreLocation) -> PostgresDb:
    """A read-only connection to the PostgreSQL store at `location`, its schema checked;
    `RunStoreError` when it cannot be reached, holds no run store, or one newer than this gg."""
    from gg.telemetry.postgres import NoStoreThere, connect

    db = connect(location, read_only=True)
    try:
        dialect = dialect_of(location.backend)
        version = dialect.version(db)
        if version > SCHEMA_VERSION:
            raise RunStoreError(
                f"{location.shown}: its schema ({version}) is newer than this gg reads ({SCHEMA_VERSION})"
            )
        if version < 1:
            raise NoStoreThere(f"no run store at {location.shown}")
    except BaseException:
        db.close()
        raise
    return db


def held_at(location: StoreLocation) -> HeldConnection:
    """A held read-only connection to the store at `location`, of either database."""
    if location.backend is Backend.SQLITE:
        return held_read_only(location.path)
    return held_postgres(location)


def held_read_only(path: Path) -> HeldConnection:
    """A held read-only connection to the store at `path`; `RunStoreError` when there is none or it
    cannot be read as a run store."""
    try:
        with _naming_damage(path):
            return HeldConnection(open_read_only(path))
    except FileNotFoundError as missing:
        raise RunStoreError(str(missing)) from None
    except NotARunStore as foreign:
        raise RunStoreError(f"{escaped(str(path))}: {foreign}") from None


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


def _one_match(ref: str, matches: list[RunRow]) -> RunRow:
    if not ref or not matches:
        raise RunLookupError(f"no run matches `{escaped(ref)}`")
    if len(matches) > 1:
        shown = ", ".join(f"`{row.id}`" for row in matches[:MAX_AMBIGUOUS_SHOWN])
        more = len(matches) - MAX_AMBIGUOUS_SHOWN
        tail = f" and {more} more" if more > 0 else ""
        raise RunLookupError(f"`{escaped(ref)}` matches {len(matches)} runs: {shown}{tail}")
    return matches[0]


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))
