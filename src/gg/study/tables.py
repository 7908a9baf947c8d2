"""Every study table as plain values, and their `--json` and `--csv` spellings.

- A `Table` is named columns (camelCase, as JSON keys and CSV headers) and rows of plain values;
  no value is rounded or formatted here: that is the display's business.
- `--json` is `{"schema": 1, "<table>": [...]}`, one object per row, as `gg runs --json` opens
  its document (`studies` for `gg study list`, `results` for `gg study show`, `cells` for
  `show --cells`, `comparison` for `gg study compare`); `--csv` has a header line, and an absent
  value is an empty field.
- The results table has one column per error type any cell met (`errors.<type>`).
- The studies table names a study's configs and tasks in one field each, joined by `, `.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gg.study.compare import Comparison, PairTally
from gg.study.results import ConfigResult
from gg.study.rows import CellRow, StudyRow

__all__ = ["Table", "cells_table", "comparison_table", "in_study_order", "results_table", "studies_table"]

Value = str | int | float | bool | None
SCHEMA = 1


@dataclass(frozen=True)
class Table:
    """A table named `name`, the key its rows go under in `--json`."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Value, ...], ...]

    def records(self) -> list[dict[str, Value]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def to_json(self) -> str:
        document = {"schema": SCHEMA, self.name: self.records()}
        return json.dumps(document, indent=2, ensure_ascii=False)

    def to_csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(["" if value is None else value for value in row] for row in self.rows)
        return buffer.getvalue()


def studies_table(studies: Sequence[tuple[StudyRow, int]]) -> Table:
    """One row per study, in the order given (newest first), with how many of its cells finished."""
    columns = (
        "id",
        "name",
        "status",
        "finished",
        "cells",
        "configs",
        "tasks",
        "repeats",
        "seed",
        "model",
        "executor",
        "createdAt",
    )
    rows = tuple(
        (
            row.id,
            row.name,
            row.shown_status,
            finished,
            row.cells,
            ", ".join(row.config_names),
            ", ".join(row.task_names),
            row.repeats,
            row.seed,
            row.model,
            row.executor,
            row.created_at,
        )
        for row, finished in studies
    )
    return Table("studies", columns, rows)


def results_table(results: Sequence[ConfigResult]) -> Table:
    kinds = sorted({kind for result in results for kind in result.errors_by_type})
    columns = (
        "config",
        "cells",
        "solved",
        "notRun",
        "rate",
        "ciLow",
        "ciHigh",
        "turnsMedian",
        "turnsP90",
        "programsMedian",
        "programsP90",
        "errorTurns",
        "tokensMedian",
        "tokensP90",
        "costMedian",
        "costP90",
        "costTotal",
        "wallMsMedian",
        "wallMsP90",
        *(f"errors.{kind}" for kind in kinds),
    )
    rows = tuple(_result_row(result, kinds) for result in results)
    return Table("results", columns, rows)


def _result_row(result: ConfigResult, kinds: Sequence[str]) -> tuple[Value, ...]:
    low, high = result.interval or (None, None)
    return (
        result.config,
        result.cells,
        result.solved,
        result.not_run,
        result.rate,
        low,
        high,
        result.turns.median,
        result.turns.p90,
        result.programs.median,
        result.programs.p90,
        result.error_turns,
        result.tokens.median,
        result.tokens.p90,
        result.cost.median,
        result.cost.p90,
        result.cost_total,
        result.wall_ms.median,
        result.wall_ms.p90,
        *(result.errors_by_type.get(kind, 0) for kind in kinds),
    )


def comparison_table(comparison: Comparison) -> Table:
    columns = (
        "a",
        "b",
        "task",
        "pairs",
        "both",
        "onlyA",
        "onlyB",
        "neither",
        "notRun",
        "mcnemarP",
        "costDiffMedian",
        "costDiffMean",
        "turnsDiffMedian",
        "turnsDiffMean",
    )
    tallies = (*comparison.tasks, comparison.total)
    return Table("comparison", columns, tuple(_tally_row(comparison, tally) for tally in tallies))


def _tally_row(comparison: Comparison, tally: PairTally) -> tuple[Value, ...]:
    return (
        comparison.a,
        comparison.b,
        tally.task,
        tally.pairs,
        tally.both,
        tally.only_a,
        tally.only_b,
        tally.neither,
        tally.not_run,
        tally.p_value,
        tally.cost.median,
        tally.cost.mean,
        tally.turns.median,
        tally.turns.mean,
    )


CELL_COLUMNS = (
    "config",
    "task",
    "repeat",
    "verdict",
    "solved",
    "status",
    "turns",
    "programs",
    "errorTurns",
    "inputTokens",
    "outputTokens",
    "costUsd",
    "wallMs",
    "checkExit",
    "checkDetail",
    "runId",
)


def cells_table(rows: Sequence[CellRow]) -> Table:
    return Table("cells", CELL_COLUMNS, tuple(_cell_values(row) for row in rows))


def _cell_values(row: CellRow) -> tuple[Any, ...]:
    """One cell's values, in `CELL_COLUMNS` order."""
    return (
        row.config,
        row.task,
        row.repeat,
        row.verdict,
        row.solved,
        row.status,
        row.turns,
        row.programs,
        row.error_turns,
        row.input_tokens,
        row.output_tokens,
        row.cost_usd,
        row.wall_ms,
        row.check_exit,
        row.check_detail,
        row.run_id,
    )


def in_study_order(rows: Sequence[CellRow], configs: Sequence[str], tasks: Sequence[str]) -> list[CellRow]:
    """Cells by config, then task, in the order the study file names them, then by repeat."""
    config_at = {name: index for index, name in enumerate(configs)}
    task_at = {name: index for index, name in enumerate(tasks)}
    return sorted(
        rows,
        key=lambda row: (
            config_at.get(row.config, len(configs)),
            task_at.get(row.task, len(tasks)),
            row.repeat,
        ),
    )
