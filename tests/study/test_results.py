"""Per-config results: solved rate with its Wilson interval, spreads, error turns by type."""

from __future__ import annotations

import pytest

from gg.study.results import config_results
from gg.study.tables import results_table

from .rows import cell


def test_each_config_gets_its_solved_rate_interval_and_spreads() -> None:
    rows = [
        cell("a", "t1", solved=True, turns=2, cost=0.01, wall_ms=100),
        cell("a", "t2", solved=False, turns=4, cost=0.03, errors={"program_throw": 2}, wall_ms=300),
        cell("a", "t3", solved=True, turns=3, cost=None, errors={"transpile_compile": 1}, wall_ms=200),
        cell("b", "t1", solved=False, turns=1),
    ]
    a, b = config_results(rows, ["a", "b"])
    assert (a.config, a.cells, a.solved, a.rate) == ("a", 3, 2, pytest.approx(2 / 3))
    assert a.interval == (pytest.approx(0.2076596, abs=1e-7), pytest.approx(0.9385081, abs=1e-7))
    assert (a.turns.median, a.turns.p90) == (3, pytest.approx(3.8))
    assert (a.cost.median, a.cost_total) == (pytest.approx(0.02), pytest.approx(0.04))  # priced cells only
    assert (a.wall_ms.median, a.wall_ms.p90) == (200, pytest.approx(280))
    assert a.error_turns == 3 and a.errors_by_type == {"program_throw": 2, "transpile_compile": 1}
    assert (b.solved, b.cost.median, b.cost_total) == (0, None, None)


def test_a_config_without_finished_cells_has_no_rate() -> None:
    (result,) = config_results([], ["a"])
    assert (
        result.cells == 0 and result.rate is None and result.interval is None and result.turns.median is None
    )


def test_the_results_table_has_a_column_per_error_type_met() -> None:
    rows = [cell("a", "t1", errors={"program_throw": 1}), cell("b", "t1", errors={"model_timeout": 2})]
    table = results_table(config_results(rows, ["a", "b"]))
    assert table.columns[-2:] == ("errors.model_timeout", "errors.program_throw")
    records = table.records()
    assert (records[0]["errors.program_throw"], records[0]["errors.model_timeout"]) == (1, 0)
    header = table.to_csv().splitlines()[0]
    assert header.startswith("config,cells,solved,notRun,rate,ciLow,ciHigh,turnsMedian")


def test_a_cell_whose_check_did_not_run_is_counted_apart_never_in_the_solved_rate() -> None:
    rows = [
        cell("a", "t1", solved=True),
        cell("a", "t2", solved=False),
        cell("a", "t3", solved=False, turns=0, verdict="not-run"),
        cell("b", "t1", solved=False, turns=0, verdict="not-run"),
    ]
    a, b = config_results(rows, ["a", "b"])
    assert (a.cells, a.solved, a.not_run, a.rate) == (3, 1, 1, 0.5)
    assert a.interval == (pytest.approx(0.0945312, abs=1e-7), pytest.approx(0.9054688, abs=1e-7))
    assert (b.cells, b.solved, b.not_run, b.rate, b.interval) == (1, 0, 1, None, None)
    records = results_table([a, b]).records()
    assert (records[0]["notRun"], records[0]["rate"], records[1]["rate"]) == (1, 0.5, None)
