"""Two configs of one study, paired cell by cell: same task, same repeat.

- each pair is solved by both, by A only, by B only, or by neither; the exact McNemar p-value
  judges the pairs solved by one only;
- the paired differences are B − A, per pair, in cost (pairs where both were priced) and turns,
  given as median and mean;
- the tally is given for every task and for the whole study; a cell without its partner (a study
  not finished) is counted as unpaired and left out, and so is a pair either of whose checks did
  not run (`not-run`), counted apart (`not_run`): it is never a pair solved by neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gg.study.check import CheckVerdict
from gg.study.rows import CellRow
from gg.study.stats import mcnemar_exact, median

__all__ = ["ALL_TASKS", "Comparison", "Difference", "PairTally", "compare"]

ALL_TASKS = "(all)"


@dataclass(frozen=True)
class Difference:
    """B − A over the pairs: median and mean (None with no pairs)."""

    median: float | None
    mean: float | None


def _difference(values: Sequence[float]) -> Difference:
    return Difference(median(values), sum(values) / len(values) if values else None)


@dataclass(frozen=True)
class PairTally:
    task: str
    pairs: int
    both: int
    only_a: int
    only_b: int
    neither: int
    not_run: int
    p_value: float
    cost: Difference
    turns: Difference


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    tasks: tuple[PairTally, ...]
    total: PairTally
    unpaired: int


def compare(rows: Sequence[CellRow], a: str, b: str, tasks: Sequence[str]) -> Comparison:
    """Configs `a` and `b` of one study's cells, paired by task and repeat."""
    cells_a = {(row.task, row.repeat): row for row in rows if row.config == a}
    cells_b = {(row.task, row.repeat): row for row in rows if row.config == b}
    paired = sorted(cells_a.keys() & cells_b.keys())
    pairs = [(cells_a[key], cells_b[key]) for key in paired]
    per_task = tuple(_tally(task, [(x, y) for x, y in pairs if x.task == task]) for task in tasks)
    unpaired = len(cells_a.keys() ^ cells_b.keys())
    return Comparison(a, b, per_task, _tally(ALL_TASKS, pairs), unpaired)


def _tally(task: str, paired: Sequence[tuple[CellRow, CellRow]]) -> PairTally:
    pairs = [(x, y) for x, y in paired if _scored(x) and _scored(y)]
    only_a = sum(x.solved and not y.solved for x, y in pairs)
    only_b = sum(y.solved and not x.solved for x, y in pairs)
    both = sum(x.solved and y.solved for x, y in pairs)
    costs = [y.cost_usd - x.cost_usd for x, y in pairs if x.cost_usd is not None and y.cost_usd is not None]
    return PairTally(
        task=task,
        pairs=len(pairs),
        both=both,
        only_a=only_a,
        only_b=only_b,
        neither=len(pairs) - both - only_a - only_b,
        not_run=len(paired) - len(pairs),
        p_value=mcnemar_exact(only_a, only_b),
        cost=_difference(costs),
        turns=_difference([float(y.turns - x.turns) for x, y in pairs]),
    )


def _scored(row: CellRow) -> bool:
    return row.verdict != CheckVerdict.NOT_RUN
