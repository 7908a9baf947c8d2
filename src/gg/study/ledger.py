"""The study ledger: studies and their cells, in the run store's own database (its SQLite file, or
its PostgreSQL database: one schema and one set of queries, through the dialect).

Rules:
- three tables beside the run store's (created here, never touching its schema): `studies`, one
  row per study; `study_attempts`, the run a cell's record is being written under; `study_cells`,
  one row per finished cell, keyed by (study, config, task, repeat), so a cell is finished at most
  once whatever delivers it twice;
- a cell is finished only once its row is committed, and its row is committed only after its run's
  whole record: an attempt without a cell row is a record cut short (the driver was killed while
  writing it), which `discard_unfinished` deletes, run and events, so the cell runs again cleanly;
- a study's `status` is `running` until the driver ends it; a running study whose driver is gone
  from this host reads as `interrupted`;
- the driver is the only writer (one connection; WAL and the busy timeout as the run store's,
  or the PostgreSQL store's own connection settings).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import fields
from pathlib import Path
from typing import Any

from gg.record.runs import RUNNING
from gg.study.cell import CellReport
from gg.study.figures import RunFigures
from gg.study.plan import CellKey
from gg.study.rows import CELL_COLUMNS, STUDY_COLUMNS, CellRow, StudyReads, StudyRow
from gg.telemetry.dialect import Database, dialect_of
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.store import BUSY_TIMEOUT_MS, transaction

__all__ = ["Ledger"]

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS studies (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, file TEXT NOT NULL, fingerprint TEXT NOT NULL,
        configs TEXT NOT NULL, tasks TEXT NOT NULL, repeats INTEGER NOT NULL, seed INTEGER NOT NULL,
        cells INTEGER NOT NULL, model TEXT, executor TEXT NOT NULL, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL, status TEXT NOT NULL, pid INTEGER, host TEXT)""",
    """CREATE TABLE IF NOT EXISTS study_attempts (
        run_id TEXT PRIMARY KEY, study_id TEXT NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
        config TEXT NOT NULL, task TEXT NOT NULL, repeat INTEGER NOT NULL, started_at TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS study_cells (
        study_id TEXT NOT NULL REFERENCES studies (id) ON DELETE CASCADE, config TEXT NOT NULL,
        task TEXT NOT NULL, repeat INTEGER NOT NULL, run_id TEXT NOT NULL, status TEXT NOT NULL,
        exit_code INTEGER, verdict TEXT NOT NULL, solved INTEGER NOT NULL, check_exit INTEGER,
        check_detail TEXT NOT NULL, check_ms {real} NOT NULL, turns INTEGER NOT NULL,
        programs INTEGER NOT NULL, error_turns INTEGER NOT NULL, errors_by_type TEXT NOT NULL,
        input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cost_usd {real},
        wall_ms {real} NOT NULL, attempts INTEGER, worker TEXT NOT NULL, message TEXT,
        finished_at TEXT NOT NULL, PRIMARY KEY (study_id, config, task, repeat))""",
    "CREATE INDEX IF NOT EXISTS studies_by_start ON studies (created_at DESC, id DESC)",
)


class Ledger(StudyReads):
    """The study tables of the store at `where` (the run store's `runs.db`, or its database)."""

    def __init__(self, where: Path | StoreLocation) -> None:
        location = where if isinstance(where, StoreLocation) else StoreLocation(Backend.SQLITE, where)
        dialect = dialect_of(location.backend)
        super().__init__(_connected(location), location.path, dialect=dialect, where=location.shown)
        with self._transaction():
            self.dialect.lock_schema(self._db)
            for statement in _SCHEMA:
                self._db.execute(self.dialect.render(statement))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def begin_study(self, row: StudyRow) -> None:
        placeholders = ", ".join("?" for _ in fields(StudyRow))
        with self._transaction():
            self._db.execute(f"INSERT INTO studies ({STUDY_COLUMNS}) VALUES ({placeholders})", _values(row))

    def adopt_study(self, study_id: str, executor: str, at: str) -> None:
        """A resumed study: running again, under this driver and its executor."""
        with self._transaction():
            self._db.execute(
                "UPDATE studies SET status = ?, pid = ?, host = ?, executor = ?, updated_at = ? WHERE id = ?",
                (RUNNING, os.getpid(), socket.gethostname(), executor, at, study_id),
            )

    def end_study(self, study_id: str, status: str, at: str) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE studies SET status = ?, updated_at = ? WHERE id = ?", (status, at, study_id)
            )

    def copy_study(self, study: StudyRow, cells: Sequence[CellRow]) -> tuple[bool, int]:
        """Write a study read from another store, as it stands there, with its finished cells:
        whether the study was new here, and how many of its cells were (one held is kept)."""
        study_marks = ", ".join("?" for _ in fields(StudyRow))
        with self._transaction():
            added = self._db.execute(
                f"INSERT INTO studies ({STUDY_COLUMNS}) VALUES ({study_marks}) ON CONFLICT DO NOTHING"
                " RETURNING id",
                _values(study),
            ).fetchall()
            written = sum(self._new_cell(cell) for cell in cells)
        return len(added) == 1, written

    def begin_attempt(self, study_id: str, key: CellKey, run_id: str, at: str) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT INTO study_attempts (run_id, study_id, config, task, repeat, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (run_id, study_id, key.config, key.task, key.repeat, at),
            )

    def finish_cell(
        self, study_id: str, report: CellReport, figures: RunFigures, attempts: int | None, at: str
    ) -> bool:
        """Commit the cell's result; False when the cell was already finished (nothing written)."""
        check = report.check
        row = CellRow(
            study_id,
            report.key.config,
            report.key.task,
            report.key.repeat,
            report.run_id,
            report.status,
            figures.exit_code,
            check.verdict.value,
            check.solved,
            check.exit_code,
            check.detail,
            check.duration_ms,
            figures.turns,
            figures.programs,
            figures.error_turns,
            json.dumps(dict(figures.errors_by_type), sort_keys=True),
            figures.input_tokens,
            figures.output_tokens,
            figures.cost_usd,
            figures.wall_ms,
            attempts,
            report.worker,
            report.message,
            at,
        )
        with self._transaction():
            inserted = self._new_cell(row)
            self._db.execute("UPDATE studies SET updated_at = ? WHERE id = ?", (at, study_id))
            return inserted

    def _new_cell(self, row: CellRow) -> bool:
        """Insert a finished cell's row, inside the caller's transaction; False when the cell was
        already finished (nothing written)."""
        placeholders = ", ".join("?" for _ in fields(CellRow))
        inserted = self._db.execute(
            f"INSERT INTO study_cells ({CELL_COLUMNS}) VALUES ({placeholders}) ON CONFLICT DO NOTHING"
            " RETURNING study_id",
            _values(row),
        ).fetchall()
        return len(inserted) == 1

    def discard_unfinished(self, study_id: str) -> list[str]:
        """Delete the runs whose record was cut short before their cell finished; their ids."""
        with self._transaction():
            orphans = [
                run_id
                for (run_id,) in self._db.execute(
                    "SELECT run_id FROM study_attempts WHERE study_id = ? AND run_id NOT IN"
                    " (SELECT run_id FROM study_cells WHERE study_id = ?)",
                    (study_id, study_id),
                ).fetchall()
            ]
            for run_id in orphans:
                self._db.execute("DELETE FROM runs WHERE id = ?", (run_id,))
                self._db.execute("DELETE FROM study_attempts WHERE run_id = ?", (run_id,))
        return orphans

    def run_id_taken(self, run_id: str) -> bool:
        found = self._db.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone()
        return found is not None

    def _transaction(self) -> AbstractContextManager[None]:
        return transaction(self._db, self.dialect)


def _connected(location: StoreLocation) -> Database:
    """The driver's one connection to the store's database."""
    if location.url is not None:
        from gg.telemetry.postgres import connect

        return connect(location)
    db = sqlite3.connect(location.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    return db


def _values(row: Any) -> Sequence[Any]:
    """A row's values in column order; a truth value as the 0 or 1 an INTEGER column holds on both
    databases."""
    values = (getattr(row, f.name) for f in fields(row))
    return tuple(int(value) if isinstance(value, bool) else value for value in values)
