"""A study's results per config: solved rate with its Wilson interval, and the spread of the rest.

- `solved` counts the cells whose check said solved, over the config's scored cells: every
  finished cell but those whose check did not run (`not-run`: a refused run, a check that could
  not be jailed), which are counted apart (`not_run`) and never enter the rate or its interval;
- turns, programs, tokens, cost and wall time are each given as median and p90 over the cells
  (cost over the cells whose replies were priced; None when none was);
- error turns are summed over the cells, in all and by error type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gg.study.check import CheckVerdict
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
    not_run: int
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
    def scored(self) -> int:
        """The cells whose check ran: the rate's denominator."""
        return self.cells - self.not_run

    @property
    def rate(self) -> float | None:
        return self.solved / self.scored if self.scored else None


def config_results(rows: Sequence[CellRow], configs: Sequence[str]) -> list[ConfigResult]:
    """One result per config, in the study's order."""
    return [_result(config, [row for row in rows if row.config == config]) for config in configs]


def _result(config: str, rows: Sequence[CellRow]) -> ConfigResult:
    solved = sum(row.solved for row in rows)
    not_run = sum(row.verdict == CheckVerdict.NOT_RUN for row in rows)
    costs = [row.cost_usd for row in rows if row.cost_usd is not None]
    errors = Counter[str]()
    for row in rows:
        errors.update(row.error_types)
    return ConfigResult(
        config=config,
        cells=len(rows),
        solved=solved,
        not_run=not_run,
        interval=wilson_interval(solved, len(rows) - not_run),
        turns=spread(row.turns for row in rows),
        programs=spread(row.programs for row in rows),
        error_turns=sum(row.error_turns for row in rows),
        errors_by_type=dict(sorted(errors.items())),
        tokens=spread(row.tokens for row in rows),
        cost=spread(costs),
        cost_total=sum(costs) if costs else None,
        wall_ms=spread(row.wall_ms for row in rows),
    )
