"""A study's results per config: solved rate with its Wilson interval, and the spread of the rest.

- `solved` counts the cells whose check said solved, over every finished cell of the config;
- turns, programs, tokens, cost and wall time are each given as median and p90 over the cells
  (cost over the cells whose replies were priced; None when none was);
- error turns are summed over the cells, in all and by error type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gg.study.rows import CellRow
from gg.study.stats import median, p90, wilson_interval

__all__ = ["ConfigResult", "Spread", "config_results", "spread"]


@dataclass(frozen=True)
class Spread:
    median: float | None
    p90: float | None


def spread(values: Iterable[float]) -> Spread:
    kept = list(values)
    return Spread(median(kept), p90(kept))


@dataclass(frozen=True)
class ConfigResult:
    config: str
    cells: int
    solved: int
    interval: tuple[float, float] | None
    turns: Spread
    programs: Spread
    error_turns: int
    errors_by_type: Mapping[str, int]
    tokens: Spread
    cost: Spread
    cost_total: float | None
    wall_ms: Spread

    @property
    def rate(self) -> float | None:
        return self.solved / self.cells if self.cells else None


def config_results(rows: Sequence[CellRow], configs: Sequence[str]) -> list[ConfigResult]:
    """One result per config, in the study's order."""
    return [_result(config, [row for row in rows if row.config == config]) for config in configs]


def _result(config: str, rows: Sequence[CellRow]) -> ConfigResult:
    solved = sum(row.solved for row in rows)
    costs = [row.cost_usd for row in rows if row.cost_usd is not None]
    errors = Counter[str]()
    for row in rows:
        errors.update(row.error_types)
    return ConfigResult(
        config=config,
        cells=len(rows),
        solved=solved,
        interval=wilson_interval(solved, len(rows)),
        turns=spread(row.turns for row in rows),
        programs=spread(row.programs for row in rows),
        error_turns=sum(row.error_turns for row in rows),
        errors_by_type=dict(sorted(errors.items())),
        tokens=spread(row.tokens for row in rows),
        cost=spread(costs),
        cost_total=sum(costs) if costs else None,
        wall_ms=spread(row.wall_ms for row in rows),
    )
