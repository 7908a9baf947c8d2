"""The retry schedule every provider shares.

A retryable failure (see `failures.py`) is tried again after a wait: the provider's own
`retry-after` when it sent one (up to `max_wait_secs`), else exponential backoff with jitter —
`min(cap, base * 2**(retry-1))`, of which the upper half is drawn at random. Each retry is one
operator line, never a turn, naming the attempt's symptom (`rate_limited`, `server_failed`, ...):
an attempt that will be retried has not exhausted anything. Once the attempts are spent the last
failure stands, with its error type and a message saying how many attempts were made. Sleep and
the random draw are injected.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from gg.providers.base import LogFn
from gg.providers.failures import Failure
from gg.telemetry.events import LogLevel

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4
    base_secs: float = 0.5
    cap_secs: float = 8.0
    max_wait_secs: float = 60.0

    def delay_secs(self, retry: int, failure: Failure, draw: float) -> float:
        """The wait before retry number `retry` (from 1); `draw` is uniform in [0, 1)."""
        if failure.retry_after_secs is not None:
            return min(failure.retry_after_secs, self.max_wait_secs)
        ceiling = min(self.cap_secs, self.base_secs * 2 ** (retry - 1))
        return ceiling / 2 + draw * ceiling / 2


@dataclass(frozen=True)
class Retrier:
    log: LogFn
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: Callable[[float], None] = time.sleep
    draw: Callable[[], float] = random.random

    def run(self, model_id: str, attempt: Callable[[], T | Failure]) -> T | Failure:
        """Call `attempt` until it succeeds, fails for good, or the attempts are spent."""
        attempts = max(1, self.policy.attempts)
        for number in range(1, attempts + 1):
            result = attempt()
            if not isinstance(result, Failure) or not result.is_retryable:
                return result
            if number == attempts:
                return replace(result, message=f"{result.message} (gave up after {attempts} attempts)")
            self._wait(model_id, number, result)
        raise AssertionError("unreachable: the loop returns on its last attempt")

    def _wait(self, model_id: str, number: int, failure: Failure) -> None:
        delay = self.policy.delay_secs(number, failure, self.draw())
        self.log(
            LogLevel.WARN.value,
            f"model call to {model_id} failed ({failure.message}); retrying in {delay:.2f}s",
            {
                "model": model_id,
                "attempt": number,
                "attempts": self.policy.attempts,
                "delaySecs": round(delay, 3),
                "symptom": failure.symptom.value,
                "status": failure.status,
            },
        )
        self.sleep(delay)
