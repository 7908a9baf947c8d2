"""A monotonic clock for tests: it reads what the test set and moves only when the test moves it."""

from __future__ import annotations


class ManualClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, secs: float) -> None:
        self.now += secs
