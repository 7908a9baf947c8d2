"""A program's `asyncio.sleep`s: each one a pending future the engine's other tasks run past, settled
when it is due, as CPython's event loop wakes its timers.

Rules kept here:
- an awaited `asyncio.sleep(secs)` of more than 0 seconds reaches the worker as the engine's
  `system.async_sleep`; it is answered with a future and parked, due `secs` after it was asked, so
  every other task that can run runs (the engine answers a sleep of 0 itself, at once, and lets no
  other task run);
- when every task waits, the worker waits until the earliest parked sleep is due, then settles every
  sleep due by then, earliest first, the one asked first first among equals (the engine resumes the
  tasks in that order); the sleep's own `result` is the engine's to give back;
- a pending call the worker never parked is refused: an SDK call is synchronous and never pending.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

ASYNC_SLEEP = "system.async_sleep"
NOT_PENDING = {"exc_type": "RuntimeError", "message": "gg's SDK calls are synchronous; nothing is pending"}


@dataclass
class Sleeps:
    """The parked sleeps of one program, by the engine's call id."""

    clock: Callable[[], float] = time.monotonic
    wait: Callable[[float], None] = time.sleep
    due: dict[int, float] = field(default_factory=dict[int, float])

    def park(self, call_id: int, secs: float) -> None:
        self.due[call_id] = self.clock() + max(0.0, secs)

    def settle(self, pending: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The results for a `FutureSnapshot` whose tasks all wait on `pending`, in the order the
        engine is to resume them; waits until the first of them is due."""
        pending = list(pending)
        parked = sorted((self.due[call], call) for call in pending if call in self.due)
        foreign = {call: NOT_PENDING for call in pending if call not in self.due}
        if foreign or not parked:
            return foreign
        lag = parked[0][0] - self.clock()
        if lag > 0:
            self.wait(lag)
        now = self.clock()
        settled: dict[int, dict[str, Any]] = {}
        for when, call in parked:
            if when <= now:
                del self.due[call]
                settled[call] = {"return_value": None}
        return settled
