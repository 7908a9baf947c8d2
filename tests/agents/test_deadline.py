"""What is left of the run's time: the one rule every wait inside a run is bounded by."""

from __future__ import annotations

from gg.deadline import is_spent, time_left, unbounded, within


def test_what_is_left_is_the_deadline_less_now_never_below_zero() -> None:
    assert time_left(130.0, 100.0) == 30.0
    assert time_left(130.0, 131.5) == 0.0
    assert time_left(None, 100.0) is None and unbounded() is None


def test_the_runs_time_is_spent_once_nothing_is_left() -> None:
    assert not is_spent(130.0, 129.9)
    assert is_spent(130.0, 130.0) and is_spent(130.0, 200.0)
    assert not is_spent(None, 1e12)


def test_a_timeout_is_at_most_what_is_left() -> None:
    assert within(120.0, 30.0) == 30.0
    assert within(5.0, 30.0) == 5.0
    assert within(5.0, 0.0) == 0.0
    assert within(5.0, None) == 5.0
