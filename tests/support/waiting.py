"""Waiting on a condition, never on a guess of time: poll until it holds, and fail naming what
never came once a bound meant only to catch a hang has passed."""

from __future__ import annotations

import time
from collections.abc import Callable

POLL_SECS = 0.02


def wait_until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    """Return once `condition()` holds; `AssertionError` naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(POLL_SECS)
