"""The console's one way into a run store: read-only, and never a traceback for a bad file.

Rules:
- Every query reads through the one reader of a run store (`gg.record.reader.RunReader`) on a
  connection opened for that query alone (`gg.record.readonly`: `mode=ro`, or `immutable` where
  even its WAL cannot be opened); the console never creates, migrates or writes the store. A run
  being written (WAL) is read at its last commit on every query.
- A missing store is not an error: the console serves, and says no run has been recorded yet.
- A PostgreSQL store (`gg.telemetry.location`) is read the same way, on a read-only connection
  opened for each query; a server it cannot reach, or a database holding no run store, is
  `StoreUnreadable` naming the URL without its password. Its studies are read as an SQLite
  store's are.
- A file that is not SQLite, is truncated, or holds another schema raises `StoreUnreadable`
  with the reason in plain words; a run id the store does not hold raises `RunMissing`.
- Every run's figures the runs page needs are read once per event count: its agents counted by
  SQLite, its programs, error turns, tokens and cost by the run's tally (`gg.record.tally`,
  the reading `gg show` and the run page make).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gg.record.envelope import Record
from gg.record.reader import EVERY_RUN, RunReader, StoreState
from gg.record.readonly import NotARunStore, open_read_only
from gg.record.runs import RunRow
from gg.study.rows import CellRow, StudyLookupError, StudyReads, StudyRow
from gg.telemetry.dialect import Database, dialect_of
from gg.telemetry.integrity import way_out
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.store import RunStoreError


class StoreUnreadable(Exception):
    """The file is not a run store this console can read; `reason` says why in plain words."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class RunMissing(LookupError):
    """The store holds no run with this id."""


@dataclass(frozen=True)
class RunPageFigures:
    """What the runs page shows of a run beyond its row."""

    agents: int = 0
    programs: int = 0
    errors: int = 0
    tokens: int = 0
    cost_usd: float | None = None


class RunSource:
    """Read-only queries of one run store file."""

    def __init__(self, where: Path | StoreLocation) -> None:
        self.location = where if isinstance(where, StoreLocation) else StoreLocation(Backend.SQLITE, where)
        self.path = self.location.path
        self._lock = threading.Lock()
        self._figures: dict[str, tuple[int, RunPageFigures]] = {}
        dialect = dialect_of(self.location.backend)
        self._reader = RunReader(self.path, self, dialect=dialect, where=self.location.shown)

    def exists(self) -> bool:
        return self.location.url is not None or self.path.is_file()

    def list_runs(self) -> list[RunRow]:
        """Every run, newest first."""
        return self._reader.list_runs(EVERY_RUN)

    def run(self, run_id: str) -> RunRow:
        row = self._reader.run(run_id)
        if row is None:
            raise RunMissing(run_id)
        return row

    def events(self, run_id: str) -> list[Record]:
        """A run's events as records (`gg.record.envelope`), in emit order."""
        return self._reader.events(run_id)

    def studies(self) -> list[StudyRow]:
        """Every study the store holds, newest first (none in a store no study wrote to)."""
        with self.connection() as db:
            reads = self._study_reads(db)
            return reads.studies(limit=None) if reads.holds_studies() else []

    def study(self, ref: str) -> tuple[StudyRow, list[CellRow]]:
        """A study by its id and its finished cells; `StudyLookupError` when it holds none such."""
        with self.connection() as db:
            reads = self._study_reads(db)
            if not reads.holds_studies():
                raise StudyLookupError(f"no studies in {self.location.shown}")
            row = reads.find_study(ref)
            return row, reads.cells(row.id)

    def _study_reads(self, db: Database) -> StudyReads:
        return StudyReads(db, self.path, dialect=self._reader.dialect, where=self.location.shown)

    def state(self) -> StoreState:
        return self._reader.state()

    def figures(self, rows: list[RunRow]) -> dict[str, RunPageFigures]:
        """Each run's figures, summed once per event count and kept for the next call."""
        stale = [row for row in rows if self._figures.get(row.id, (-1, None))[0] != row.events]
        fresh = self._sum_figures([row.id for row in stale])
        for row in stale:
            self._figures[row.id] = (row.events, fresh[row.id])
        return {row.id: self._figures[row.id][1] for row in rows}

    def _sum_figures(self, run_ids: list[str]) -> dict[str, RunPageFigures]:
        agents, tallies = self._reader.agents_counted(run_ids), self._reader.tallies(run_ids)
        out: dict[str, RunPageFigures] = {}
        for run_id in run_ids:
            spent = tallies[run_id]
            out[run_id] = RunPageFigures(
                agents[run_id],
                spent.programs,
                spent.error_turns,
                spent.tokens.input + spent.tokens.output,
                spent.cost_usd,
            )
        return out

    @contextmanager
    def connection(self) -> Generator[Database]:
        """A connection for one query, closed after it; a store that cannot be read as a run store
        is `StoreUnreadable`."""
        if self.location.url is None:
            with self._sqlite() as db:
                yield db
            return
        from gg.record.reader import held_postgres

        with self._lock:
            try:
                held = held_postgres(self.location)
            except RunStoreError as unreadable:
                raise StoreUnreadable(self.location.shown, str(unreadable)) from None
            try:
                with held.connection() as db:
                    yield db
            finally:
                held.close()

    @contextmanager
    def _sqlite(self) -> Generator[sqlite3.Connection]:
        with self._lock:
            db = _open(self.path)
            try:
                yield db
            except sqlite3.DatabaseError as damaged:
                raise StoreUnreadable(self.path, _reason(damaged, self.path)) from damaged
            finally:
                db.close()

    def close(self) -> None:
        """Nothing is held between queries."""


def _open(path: Path) -> sqlite3.Connection:
    try:
        return open_read_only(path)
    except FileNotFoundError:
        raise StoreUnreadable(path, "there is no run store at this path") from None
    except NotARunStore as foreign:
        raise StoreUnreadable(path, str(foreign)) from None
    except sqlite3.DatabaseError as damaged:
        raise StoreUnreadable(path, _reason(damaged, path)) from damaged


def _reason(damaged: sqlite3.DatabaseError, path: Path) -> str:
    text = str(damaged)
    if "not a database" in text:
        return f"it is not an SQLite database (or its header is damaged); {way_out(path)}"
    if "malformed" in text or "disk image" in text:
        return f"the file is damaged (truncated or overwritten); {way_out(path)}"
    return f"SQLite could not read it: {text}"
