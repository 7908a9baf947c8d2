"""The console's one way into a run store: read-only, and never a traceback for a bad file.

Rules:
- The store is opened read-only (`gg.record.readonly`: `mode=ro`, or `immutable` where even
  its WAL cannot be opened); the console never creates, migrates or writes it. A run being
  written (WAL) is read at its last commit on every query.
- A missing store is not an error: the console serves, and says no run has been recorded yet.
- A file that is not SQLite, is truncated, or holds another schema raises `StoreUnreadable`
  with the reason in plain words; a run id the store does not hold raises `RunMissing`.
- Every run's figures the runs page needs are read once per event count: its agents counted by
  SQLite, its programs, error turns, tokens and cost by the run's tally (`gg.record.tally`,
  the reading `gg show` and the run page make), over the events it reads.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from gg.record.readonly import open_read_only, schema_defect
from gg.record.tally import TALLIED, tally
from gg.study.rows import CellRow, StudyLookupError, StudyReads, StudyRow
from gg.telemetry.integrity import way_out
from gg.telemetry.store import RunRow

_COLUMNS = ", ".join(f.name for f in fields(RunRow))
_AGENTS = """
SELECT run_id, COUNT(DISTINCT agent_id) FROM events
WHERE run_id IN ({marks}) AND type IN ({types}) GROUP BY run_id
"""
# These events name every agent: read through the (run, type) index.
_AGENT_TYPES = ("run_started", "agent_spawned", "model_reply", "code_execution", "turn_outcome")
_TALLIED = """
SELECT run_id, json FROM events WHERE run_id IN ({marks}) AND type IN ({types}) ORDER BY run_id, seq
"""
_FIGURES_BATCH = 500


class StoreUnreadable(Exception):
    """The file is not a run store this console can read; `reason` says why in plain words."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class RunMissing(LookupError):
    """The store holds no run with this id."""


@dataclass(frozen=True)
class RunFigures:
    """What the runs page shows of a run beyond its row."""

    agents: int = 0
    programs: int = 0
    errors: int = 0
    tokens: int = 0
    cost_usd: float | None = None


@dataclass(frozen=True)
class StoreState:
    """A token that changes whenever any run changes (runs, newest write, events)."""

    runs: int
    updated_at: str
    events: int

    @property
    def token(self) -> str:
        return f"{self.runs}:{self.events}:{self.updated_at}"


class RunSource:
    """Read-only queries of one run store file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._figures: dict[str, tuple[int, RunFigures]] = {}

    def exists(self) -> bool:
        return self.path.is_file()

    def list_runs(self) -> list[RunRow]:
        """Every run, newest first."""
        with self._db() as db:
            rows = db.execute(f"SELECT {_COLUMNS} FROM runs ORDER BY started_at DESC, id DESC").fetchall()
        return [RunRow(*row) for row in rows]

    def run(self, run_id: str) -> RunRow:
        with self._db() as db:
            row = db.execute(f"SELECT {_COLUMNS} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise RunMissing(run_id)
        return RunRow(*row)

    def events(self, run_id: str) -> list[dict[str, Any]]:
        """A run's events as wire records, in emit order."""
        with self._db() as db:
            rows = db.execute("SELECT json FROM events WHERE run_id = ? ORDER BY seq", (run_id,)).fetchall()
        return [_record(text) for (text,) in rows]

    def studies(self) -> list[StudyRow]:
        """Every study the store holds, newest first (none in a store no study wrote to)."""
        with self._db() as db:
            reads = StudyReads(db, self.path)
            return reads.studies(limit=None) if reads.holds_studies() else []

    def study(self, ref: str) -> tuple[StudyRow, list[CellRow]]:
        """A study by its id and its finished cells; `StudyLookupError` when it holds none such."""
        with self._db() as db:
            reads = StudyReads(db, self.path)
            if not reads.holds_studies():
                raise StudyLookupError(f"no studies in {self.path}")
            row = reads.find_study(ref)
            return row, reads.cells(row.id)

    def state(self) -> StoreState:
        with self._db() as db:
            runs, updated, events = db.execute(
                "SELECT COUNT(*), COALESCE(MAX(updated_at), ''), COALESCE(SUM(events), 0) FROM runs"
            ).fetchone()
        return StoreState(int(runs), str(updated), int(events))

    def figures(self, rows: list[RunRow]) -> dict[str, RunFigures]:
        """Each run's figures, summed once per event count and kept for the next call."""
        stale = [row for row in rows if self._figures.get(row.id, (-1, None))[0] != row.events]
        for start in range(0, len(stale), _FIGURES_BATCH):
            batch = stale[start : start + _FIGURES_BATCH]
            fresh = self._sum_figures([row.id for row in batch])
            for row in batch:
                self._figures[row.id] = (row.events, fresh.get(row.id, RunFigures()))
        return {row.id: self._figures[row.id][1] for row in rows}

    def _sum_figures(self, run_ids: list[str]) -> dict[str, RunFigures]:
        marks = ", ".join("?" * len(run_ids))
        with self._db() as db:
            agents = dict(
                db.execute(_AGENTS.format(marks=marks, types=_marks(_AGENT_TYPES)), [*run_ids, *_AGENT_TYPES])
            )
            rows = db.execute(
                _TALLIED.format(marks=marks, types=_marks(TALLIED)), [*run_ids, *TALLIED]
            ).fetchall()
        events: dict[str, list[dict[str, Any]]] = {}
        for run_id, text in rows:
            events.setdefault(run_id, []).append(_record(text))
        out: dict[str, RunFigures] = {}
        for run_id in run_ids:
            spent = tally(events.get(run_id, []))
            out[run_id] = RunFigures(
                int(agents.get(run_id) or 0),
                spent.programs,
                spent.error_turns,
                spent.tokens.input + spent.tokens.output,
                spent.cost_usd,
            )
        return out

    @contextmanager
    def _db(self) -> Generator[sqlite3.Connection]:
        with self._lock:
            db = _open(self.path)
            try:
                yield db
            except sqlite3.DatabaseError as damaged:
                raise StoreUnreadable(self.path, _reason(damaged, self.path)) from damaged
            finally:
                db.close()


def _marks(values: tuple[str, ...]) -> str:
    return ", ".join("?" * len(values))


def _open(path: Path) -> sqlite3.Connection:
    try:
        db = open_read_only(path)
    except FileNotFoundError:
        raise StoreUnreadable(path, "there is no run store at this path") from None
    except sqlite3.DatabaseError as damaged:
        raise StoreUnreadable(path, _reason(damaged, path)) from damaged
    try:
        defect = schema_defect(db)
    except sqlite3.DatabaseError as damaged:
        db.close()
        raise StoreUnreadable(path, _reason(damaged, path)) from damaged
    if defect is not None:
        db.close()
        raise StoreUnreadable(path, defect)
    return db


def _reason(damaged: sqlite3.DatabaseError, path: Path) -> str:
    text = str(damaged)
    if "not a database" in text:
        return f"it is not an SQLite database (or its header is damaged); {way_out(path)}"
    if "malformed" in text or "disk image" in text:
        return f"the file is damaged (truncated or overwritten); {way_out(path)}"
    return f"SQLite could not read it: {text}"


UNREADABLE = "unreadable"
"""The type a stored event that is not a JSON object reads as: counted and shown, never folded."""


def _record(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"type": UNREADABLE, "raw": text[:200]}
    return value if isinstance(value, dict) else {"type": UNREADABLE, "raw": text[:200]}
