"""The runs page: every run newest first, with its figures, filtered by status and name. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gg.console.source import RunPageFigures
from gg.record.runs import RUNNING, RunRow, elapsed_ms

ANY_STATUS = ""


@dataclass(frozen=True)
class IndexedRun:
    row: RunRow
    status: str
    figures: RunPageFigures

    @property
    def live(self) -> bool:
        return self.status == RUNNING

    @property
    def duration_ms(self) -> float | None:
        return elapsed_ms(self.row)


def listed_runs(
    rows: Sequence[RunRow],
    statuses: Mapping[str, str],
    figures: Mapping[str, RunPageFigures],
    *,
    status: str = ANY_STATUS,
    name: str = "",
) -> list[IndexedRun]:
    """The runs matching `status` (any when empty) whose name or id holds `name` (any case)."""
    wanted = name.strip().lower()
    out: list[IndexedRun] = []
    for row in rows:
        shown = statuses.get(row.id, row.status)
        if status and shown != status:
            continue
        if wanted and wanted not in row.name.lower() and wanted not in row.id.lower():
            continue
        out.append(IndexedRun(row, shown, figures.get(row.id, RunPageFigures())))
    return out
