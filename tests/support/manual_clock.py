"""Monotonic clocks for tests: they read what the test decides, never how busy the machine is.

- `ManualClock` reads what the test set and moves only when the test moves it;
- `HeldClock` stands still until the test releases it (on an event it waited for), then runs
  with the wall clock from where it stood: a ceiling read on it starts counting at the release;
  `hold()` stops it again where it is.
"""

from __future__ import annotations

import time


class ManualClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, secs: float) -> None:
        self.now += secs


class HeldClock:
    def __init__(self, now: float = 1000.0) -> None:
        self._now = now
        self._released_at: float | None = None

    def __call__(self) -> float:
        if self._released_at is None:
            return self._now
        return self._now + time.monotonic() - self._released_at

    @property
    def released(self) -> bool:
        return self._released_at is not None

    def release(self) -> None:
        """From now on the clock runs; a second release changes nothing."""
        if self._released_at is None:
            self._released_at = time.monotonic()

    def hold(self) -> None:
        """From now on the clock stands still, where it is."""
        self._now = self()
        self._released_at = None
