"""Two configs paired by task and repeat: concordance, the exact McNemar p, paired B − A."""

from __future__ import annotations

import json

import pytest

from gg.study.compare import compare
from gg.study.tables import comparison_table

from .rows import cell


def _rows() -> list:  # type: ignore[type-arg]
    return [
        cell("a", "t1", 1, solved=True, turns=2, cost=0.10),
        cell("b", "t1", 1, solved=True, turns=3, cost=0.15),
        cell("a", "t1", 2, solved=False, turns=4, cost=0.20),
        cell("b", "t1", 2, solved=True, turns=2, cost=0.05),
        cell("a", "t2", 1, solved=False, turns=5, cost=0.30),
        cell("b", "t2", 1, solved=True, turns=3, cost=None),
        cell("a", "t2", 2, solved=False, turns=1),
        cell("b", "t2", 2, solved=False, turns=1),
        cell("a", "t3", 1, solved=True),  # its partner never finished
    ]


def test_pairs_are_tallied_per_task_and_for_the_whole_study() -> None:
    comparison = compare(_rows(), "a", "b", ["t1", "t2", "t3"])
    t1, t2, t3 = comparison.tasks
    assert (t1.pairs, t1.both, t1.only_a, t1.only_b, t1.neither) == (2, 1, 0, 1, 0)
    assert (t2.pairs, t2.both, t2.only_a, t2.only_b, t2.neither) == (2, 0, 0, 1, 1)
    assert t3.pairs == 0
    total = comparison.total
    assert (total.pairs, total.both, total.only_a, total.only_b, total.neither) == (4, 1, 0, 2, 1)
    assert total.p_value == 0.5  # 2 discordant pairs, both one way: 2 × (1/2)²
    assert comparison.unpaired == 1


def test_paired_differences_are_b_minus_a_over_the_pairs_that_have_them() -> None:
    total = compare(_rows(), "a", "b", ["t1", "t2", "t3"]).total
    assert (total.turns.median, total.turns.mean) == (-1.0, pytest.approx(-0.75))  # +1, −2, −2, 0
    assert (total.cost.median, total.cost.mean) == (
        pytest.approx(-0.05),
        pytest.approx(-0.05),
    )  # +0.05, −0.15


def test_the_comparison_table_has_a_row_per_task_and_one_for_all() -> None:
    table = comparison_table(compare(_rows(), "a", "b", ["t1", "t2", "t3"]))
    document = json.loads(table.to_json())
    assert document["schema"] == 1
    records = document["comparison"]
    assert [record["task"] for record in records] == ["t1", "t2", "t3", "(all)"]
    assert records[-1] | {"costDiffMedian": None, "costDiffMean": None, "turnsDiffMean": None} == {
        "a": "a",
        "b": "b",
        "task": "(all)",
        "pairs": 4,
        "both": 1,
        "onlyA": 0,
        "onlyB": 2,
        "neither": 1,
        "notRun": 0,
        "mcnemarP": 0.5,
        "costDiffMedian": None,
        "costDiffMean": None,
        "turnsDiffMedian": -1.0,
        "turnsDiffMean": None,
    }


def test_a_pair_either_of_whose_checks_did_not_run_is_left_out_and_counted_apart() -> None:
    rows = [
        cell("a", "t1", 1, solved=False, verdict="not-run"),
        cell("b", "t1", 1, solved=False, verdict="not-run"),
        cell("a", "t1", 2, solved=True),
        cell("b", "t1", 2, solved=False, verdict="not-run"),
        cell("a", "t1", 3, solved=False),
        cell("b", "t1", 3, solved=True),
    ]
    total = compare(rows, "a", "b", ["t1"]).total
    assert (total.pairs, total.both, total.only_b, total.neither, total.not_run) == (1, 0, 1, 0, 2)
    assert total.p_value == 1.0
    assert comparison_table(compare(rows, "a", "b", ["t1"])).records()[-1]["notRun"] == 2
