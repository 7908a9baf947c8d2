"""How a failed model call is typed: the one table from symptom to `ErrorType`, and whether a
retry may cure it.

| symptom                            | error type              | retried |
|------------------------------------|-------------------------|---------|
| 401, 403                           | `model_auth`            | no      |
| 408, or the request timed out      | `model_timeout`         | no      |
| 429 (its `retry-after` honoured)   | `model_retry_exhausted` | yes     |
| 5xx, or the connection failed      | `model_retry_exhausted` | yes     |
| any other 4xx                      | `model_rejected`        | no      |
| a reply gg cannot read             | `model_parse`           | no      |
| a reply cut off by its length cap  | `model_length_capped`   | no      |

A retried symptom that outlasts the retry schedule takes the type of its last attempt. A timeout
is never retried here: each retry would cost the whole `modelCallTimeoutSecs` again, so it is an
error turn and the agent asks again. A 400 whose body names `tool_choice` is a `model_rejected`
failure that `tool_choice.py` answers first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from gg.outcome import ErrorType
from gg.providers.base import ModelError, Usage


class Symptom(StrEnum):
    AUTH_REFUSED = "auth_refused"
    TIMED_OUT = "timed_out"
    RATE_LIMITED = "rate_limited"
    SERVER_FAILED = "server_failed"
    CONNECTION_FAILED = "connection_failed"
    REJECTED = "rejected"
    UNREADABLE = "unreadable"
    LENGTH_CAPPED = "length_capped"


_TABLE: dict[Symptom, tuple[ErrorType, bool]] = {
    Symptom.AUTH_REFUSED: (ErrorType.MODEL_AUTH, False),
    Symptom.TIMED_OUT: (ErrorType.MODEL_TIMEOUT, False),
    Symptom.RATE_LIMITED: (ErrorType.MODEL_RETRY_EXHAUSTED, True),
    Symptom.SERVER_FAILED: (ErrorType.MODEL_RETRY_EXHAUSTED, True),
    Symptom.CONNECTION_FAILED: (ErrorType.MODEL_RETRY_EXHAUSTED, True),
    Symptom.REJECTED: (ErrorType.MODEL_REJECTED, False),
    Symptom.UNREADABLE: (ErrorType.MODEL_PARSE, False),
    Symptom.LENGTH_CAPPED: (ErrorType.MODEL_LENGTH_CAPPED, False),
}


@dataclass(frozen=True)
class FailedAttempt:
    """One failed attempt, as a value. `body` is the provider's raw answer (empty when there
    was none); `message` is one line naming what went wrong; `usage` is what a charged answer
    spent and `cost_usd` its cost when the provider reported one."""

    symptom: Symptom
    message: str
    status: int | None = None
    body: str = ""
    retry_after_secs: float | None = None
    usage: Usage | None = None
    cost_usd: float | None = None

    @property
    def type(self) -> ErrorType:
        return _TABLE[self.symptom][0]

    @property
    def is_retryable(self) -> bool:
        return _TABLE[self.symptom][1]

    def names_tool_choice(self) -> bool:
        """A provider that refuses a pinned tool choice answers 400 with `tool_choice` in its body."""
        return self.status == 400 and "tool_choice" in self.body

    def to_error(self, *, cost_usd: float | None = None) -> ModelError:
        return ModelError(self.type, self.message, usage=self.usage, cost_usd=cost_usd)


def symptom_of_status(status: int) -> Symptom:
    if status in (401, 403):
        return Symptom.AUTH_REFUSED
    if status == 408:
        return Symptom.TIMED_OUT
    if status == 429:
        return Symptom.RATE_LIMITED
    if status >= 500:
        return Symptom.SERVER_FAILED
    return Symptom.REJECTED


def status_failure(
    status: int, body: str, provider_message: str, headers: Mapping[str, str]
) -> FailedAttempt:
    """A failure answered with an HTTP status; `headers` may carry the wait the provider asks for."""
    return FailedAttempt(
        symptom=symptom_of_status(status),
        message=f"HTTP {status}: {one_line(provider_message)}",
        status=status,
        body=body,
        retry_after_secs=retry_after_secs(headers),
    )


def retry_after_secs(headers: Mapping[str, str]) -> float | None:
    """The wait a provider asks for: `retry-after-ms`, else `retry-after` in seconds. An HTTP
    date is not read (the schedule's own backoff applies instead)."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            secs = float(value) * scale
        except ValueError:
            continue
        if math.isfinite(secs) and secs >= 0:
            return secs
    return None


def timed_out(secs: float) -> FailedAttempt:
    """An attempt that had no reply within the `secs` it was given."""
    return FailedAttempt(Symptom.TIMED_OUT, f"the request timed out after {secs:.3g} s")


def one_line(text: str, limit: int = 500) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
