"""What is left of the run's time (`maxRuntimeSecs`): the one rule every wait inside a run is
bounded by.

Rules kept here:
- the run's deadline is its start plus `maxRuntimeSecs`, on the run's monotonic clock; a run that
  wrote no `maxRuntimeSecs` has none;
- what is left is the deadline less now, never below 0 (`time_left`); None when there is no deadline;
  the run's time is spent once nothing is left (`is_spent`);
- a timeout is at most what is left (`within`): a shell command's, a host function's call, a
  program's, a model request's and each wait between its attempts.
"""

from __future__ import annotations

from collections.abc import Callable

MonotonicClock = Callable[[], float]
"""Seconds on a clock that never goes back; only differences between two readings mean anything."""

RunLeft = Callable[[], float | None]
"""What is left of the run's time, read now: seconds, 0 once spent, None when unbounded."""


def time_left(deadline: float | None, now: float) -> float | None:
    """The seconds from `now` to `deadline` (both on the run's clock), never below 0."""
    return None if deadline is None else max(0.0, deadline - now)


def is_spent(deadline: float | None, now: float) -> bool:
    """Whether the run's time is spent at `now`."""
    return time_left(deadline, now) == 0


def within(secs: float, left: float | None) -> float:
    """`secs`, or what is `left` of the run's time when that is less."""
    return secs if left is None else min(secs, left)


def unbounded() -> float | None:
    """What is left of a run that has no deadline: no bound."""
    return None
