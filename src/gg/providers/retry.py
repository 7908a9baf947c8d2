"""The retry schedule every provider shares, and the time each attempt is given.

- Each attempt is given `modelCallTimeoutSecs`, and never more than is left of the run's time
  (`gg.deadline`); once that is spent no attempt is made.
- A retryable failure (see `failures.py`) is tried again, `maxModelRetries` times at most, each
  after a wait: 1 s before the first retry, twice the last before each later one, at most
  `modelRetryMaxDelaySecs`; a provider's own `retry-after` instead when it asks longer, within the
  same ceiling. A wait never outlasts the run: when what is left of the run's time is shorter, gg
  waits that out and makes no further attempt.
- Each retry is one operator line, never a turn, naming the attempt's symptom (`rate_limited`,
  `server_failed`, ...): an attempt that will be retried has not exhausted anything. Once the
  attempts are spent the last failure stands, with its error type and a message saying how many
  attempts were made.
Sleep and the run's time are injected.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from gg.config.catalogue import (
    DEFAULT_MAX_MODEL_RETRIES,
    DEFAULT_MODEL_CALL_TIMEOUT_SECS,
    DEFAULT_MODEL_RETRY_MAX_DELAY_SECS,
)
from gg.deadline import RunLeft, unbounded, within
from gg.providers.base import LogFn
from gg.providers.failures import FailedAttempt, Symptom
from gg.telemetry.events import LogLevel

T = TypeVar("T")

FIRST_DELAY_SECS = 1.0
RUN_TIME_SPENT = "the run's time is spent; no request was made"


@dataclass(frozen=True)
class RetryPolicy:
    """How often a failed request is tried again (`retries`), and the longest wait before one."""

    retries: int = DEFAULT_MAX_MODEL_RETRIES
    max_delay_secs: float = DEFAULT_MODEL_RETRY_MAX_DELAY_SECS

    @property
    def attempts(self) -> int:
        return 1 + max(0, self.retries)

    def delay_secs(self, retry: int, failure: FailedAttempt) -> float:
        """The wait before retry number `retry` (from 1)."""
        scheduled = FIRST_DELAY_SECS * 2 ** (retry - 1)
        asked = failure.retry_after_secs or 0.0
        return min(self.max_delay_secs, max(scheduled, asked))


@dataclass(frozen=True)
class Retrier:
    """The schedule, one attempt's time (`timeout_secs`) and what is left of the run's time."""

    log: LogFn
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    timeout_secs: float = DEFAULT_MODEL_CALL_TIMEOUT_SECS
    run_left: RunLeft = unbounded
    sleep: Callable[[float], None] = time.sleep

    def run(self, model_id: str, attempt: Callable[[float], T | FailedAttempt]) -> T | FailedAttempt:
        """Call `attempt(secs it is given)` until it succeeds, fails for good, or the attempts or
        the run's time are spent."""
        attempts = self.policy.attempts
        result: T | FailedAttempt = FailedAttempt(Symptom.TIMED_OUT, RUN_TIME_SPENT)
        for number in range(1, attempts + 1):
            secs = within(self.timeout_secs, self.run_left())
            if secs <= 0:
                return result
            result = attempt(secs)
            if not isinstance(result, FailedAttempt) or not result.is_retryable:
                return result
            if number == attempts:
                tried = f"{attempts} attempt" + ("s" if attempts > 1 else "")
                return replace(result, message=f"{result.message} (gave up after {tried})")
            if not self._waited(model_id, number, result):
                return result
        raise AssertionError("unreachable: the loop returns on its last attempt")

    def _waited(self, model_id: str, number: int, failure: FailedAttempt) -> bool:
        """The wait before retry `number`; False when the run's time ran out in it."""
        delay = self.policy.delay_secs(number, failure)
        left = self.run_left()
        if left is not None and left <= delay:
            if left > 0:
                said = f"the run's time runs out in {left:.2f}s, before another attempt"
                self._tell(model_id, number, failure, said, left)
                self.sleep(left)
            return False
        self._tell(model_id, number, failure, f"retrying in {delay:.2f}s", delay)
        self.sleep(delay)
        return True

    def _tell(self, model_id: str, number: int, failure: FailedAttempt, then: str, delay: float) -> None:
        self.log(
            LogLevel.WARN.value,
            f"model call to {model_id} failed ({failure.message}); {then}",
            {
                "model": model_id,
                "attempt": number,
                "attempts": self.policy.attempts,
                "delaySecs": round(delay, 3),
                "symptom": failure.symptom.value,
                "status": failure.status,
            },
        )
