"""Waiting, on its own condition, until a scheduler's line holds so many turns."""

from __future__ import annotations

from gg.agents.scheduler import Scheduler

WAIT_SECS = 10.0  # a guard against a hang


def queued(scheduler: Scheduler, count: int) -> bool:
    """Until `count` turns wait in `scheduler`'s line; False when they never did."""
    changed = scheduler._changed  # pyright: ignore[reportPrivateUsage]
    with changed:
        return changed.wait_for(lambda: len(scheduler._line) == count, timeout=WAIT_SECS)  # pyright: ignore[reportPrivateUsage]
