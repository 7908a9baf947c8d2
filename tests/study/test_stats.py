"""The study statistics against values worked out by hand (and printed in the textbooks)."""

from __future__ import annotations

import pytest

from gg.study.stats import mcnemar_exact, median, p90, quantile, wilson_interval


@pytest.mark.parametrize(
    ("solved", "cells", "low", "high"),
    [
        (2, 3, 0.2076596, 0.9385081),
        (3, 3, 0.4385030, 1.0),
        (0, 10, 0.0, 0.2775328),
        (5, 10, 0.2365931, 0.7634069),
        (1, 6, 0.0300534, 0.5635028),
    ],
)
def test_the_wilson_interval_matches_the_worked_values(
    solved: int, cells: int, low: float, high: float
) -> None:
    interval = wilson_interval(solved, cells)
    assert interval is not None
    assert interval == (pytest.approx(low, abs=1e-7), pytest.approx(high, abs=1e-7))


def test_no_cells_have_no_interval() -> None:
    assert wilson_interval(0, 0) is None


def test_more_solved_than_cells_is_refused() -> None:
    with pytest.raises(ValueError):
        wilson_interval(4, 3)


@pytest.mark.parametrize(
    ("only_a", "only_b", "p"),
    [
        (0, 2, 0.5),  # 2 × C(2,0) / 2²
        (1, 5, 0.21875),  # 2 × (C(6,0) + C(6,1)) / 2⁶
        (0, 6, 0.03125),
        (10, 2, 0.03857421875),  # 2 × (1 + 12 + 66) / 2¹²
        (2, 2, 1.0),  # the doubled tail passes 1 and is capped
        (0, 0, 1.0),  # no discordant pair: nothing to tell the configs apart
    ],
)
def test_the_exact_mcnemar_p_value_is_the_doubled_binomial_tail(only_a: int, only_b: int, p: float) -> None:
    assert mcnemar_exact(only_a, only_b) == pytest.approx(p, abs=1e-12)


def test_mcnemar_is_symmetric_in_its_two_counts() -> None:
    assert mcnemar_exact(3, 9) == mcnemar_exact(9, 3)


def test_quantiles_interpolate_between_order_statistics() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert median(values) == 2.5
    assert p90(values) == pytest.approx(3.7)
    assert quantile(values, 0.0) == 1.0 and quantile(values, 1.0) == 4.0


def test_one_value_is_its_own_median_and_p90() -> None:
    assert median([7.0]) == 7.0 and p90([7.0]) == 7.0


def test_no_values_have_no_median() -> None:
    assert median([]) is None and p90([]) is None


def test_a_quantile_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError):
        quantile([1.0], 1.5)


@pytest.mark.parametrize("cells", [1, 3, 9, 17, 100])
def test_the_interval_ends_exactly_at_0_with_none_solved_and_at_1_with_all(cells: int) -> None:
    none = wilson_interval(0, cells)
    every = wilson_interval(cells, cells)
    assert none is not None and every is not None
    assert none[0] == 0.0 and every[1] == 1.0
