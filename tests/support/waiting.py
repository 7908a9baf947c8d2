"""Waiting on a condition, never on a guess of time: poll until it holds, and fail naming what
never came once a bound meant only to catch a hang has passed."""

from __future__ import annotations

import time
from collections.abc import Callable

POLL_SECS = 0.02


def came_true(condition: Callable[[], bool], within: float) -> bool:
    """Whether `condition()` held within `within` seconds (polled; True as soon as it holds)."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(POLL_SECS)
    return True


def wait_until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    """Return once `condition()` holds; `AssertionError` naming `what` after `timeout` seconds."""
    if not came_true(condition, timeout):
        raise AssertionError(f"timed out waiting for {what}")
