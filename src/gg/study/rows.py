"""A study and its cells as the ledger stores them, and the queries that read them back.

Rules:
- a row is read exactly as written: the writer (`gg.study.ledger.Ledger`) and every reader (the
  `gg study` commands, the console over its read-only connection) share these queries;
- a store that holds no study tables holds no studies (a reader never creates them);
- a reference names a study by its id, a unique prefix of it (with or without `study-`), or
  `latest` / `last`.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from gg.record.reader import NEWEST_ALIASES
from gg.record.runs import INTERRUPTED, RUNNING, process_alive
from gg.study.plan import CellKey
from gg.telemetry.dialect import SQLITE, Database, Dialect
from gg.wire import escaped

__all__ = ["CellRow", "StudyLookupError", "StudyReads", "StudyRow"]


class StudyLookupError(LookupError):
    """No study, or more than one, answers a reference."""


@dataclass(frozen=True)
class StudyRow:
    id: str
    name: str
    file: str
    fingerprint: str
    configs: str
    tasks: str
    repeats: int
    seed: int
    cells: int
    model: str | None
    executor: str
    created_at: str
    updated_at: str
    status: str
    pid: int | None
    host: str | None

    @property
    def config_names(self) -> list[str]:
        return list(json.loads(self.configs))

    @property
    def task_names(self) -> list[str]:
        return list(json.loads(self.tasks))

    @property
    def shown_status(self) -> str:
        """`running` only while the driver still lives on this host; `interrupted` after."""
        if self.status != RUNNING or self.pid is None or self.host != socket.gethostname():
            return self.status
        return RUNNING if process_alive(self.pid) else INTERRUPTED


@dataclass(frozen=True)
class CellRow:
    study_id: str
    config: str
    task: str
    repeat: int
    run_id: str
    status: str
    exit_code: int | None
    verdict: str
    solved: bool
    check_exit: int | None
    check_detail: str
    check_ms: float
    turns: int
    programs: int
    error_turns: int
    errors_by_type: str
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    wall_ms: float
    attempts: int | None
    worker: str
    message: str | None
    finished_at: str

    @property
    def key(self) -> CellKey:
        return CellKey(self.config, self.task, self.repeat)

    @property
    def error_types(self) -> dict[str, int]:
        return dict(json.loads(self.errors_by_type))

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


STUDY_COLUMNS = ", ".join(f.name for f in fields(StudyRow))
CELL_COLUMNS = ", ".join(f.name for f in fields(CellRow))


class StudyReads:
    """The study queries over one connection to the store at `path` (either database: the
    dialect says what differs), named `where` as it may be printed."""

    def __init__(
        self, db: Database, path: Path, *, dialect: Dialect = SQLITE, where: str | None = None
    ) -> None:
        self._db = db
        self.path = path
        self.dialect = dialect
        self.where = escaped(str(path)) if where is None else where

    def holds_studies(self) -> bool:
        return self.dialect.holds_table(self._db, "study_cells")

    def cells(self, study_id: str) -> list[CellRow]:
        cursor = self._db.execute(
            f"SELECT {CELL_COLUMNS} FROM study_cells WHERE study_id = ? ORDER BY config, task, repeat",
            (study_id,),
        )
        return [_cell(row) for row in cursor.fetchall()]

    def studies(self, limit: int | None = 20) -> list[StudyRow]:
        """The newest `limit` studies, newest first; every one when `limit` is None."""
        sql = f"SELECT {STUDY_COLUMNS} FROM studies ORDER BY created_at DESC, id DESC LIMIT ?"
        bound = self.dialect.no_limit if limit is None else limit
        return [StudyRow(*row) for row in self._db.execute(sql, (bound,)).fetchall()]

    def find_study(self, ref: str) -> StudyRow:
        """The study a reference names: its id, a unique prefix of it, or `latest` / `last`."""
        ref = ref.strip()
        if ref.lower() in NEWEST_ALIASES:
            newest = self.studies(1)
            if not newest:
                raise StudyLookupError(f"no studies in {self.where}")
            return newest[0]
        sql = (
            f"SELECT {STUDY_COLUMNS} FROM studies"
            " WHERE id = ? OR substr(id, 1, ?) = ? OR substr(id, 1, ?) = ?"
        )
        spelled = ref if ref.startswith("study-") else "study-" + ref
        rows = [
            StudyRow(*row)
            for row in self._db.execute(sql, (ref, len(ref), ref, len(spelled), spelled)).fetchall()
        ]
        exact = [row for row in rows if row.id == ref]
        if exact or len(rows) == 1:
            return (exact or rows)[0]
        if not ref or not rows:
            raise StudyLookupError(f"no study matches `{escaped(ref)}`")
        raise StudyLookupError(
            f"`{escaped(ref)}` matches {len(rows)} studies: " + ", ".join(f"`{r.id}`" for r in rows[:5])
        )


def _cell(row: Sequence[Any]) -> CellRow:
    values = list(row)
    solved_at = [f.name for f in fields(CellRow)].index("solved")
    values[solved_at] = bool(values[solved_at])
    return CellRow(*values)
