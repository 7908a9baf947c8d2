"""The run's limits as loaded (`capabilitySet.limits`): its ceilings, how many agents take turns
at once, and what bounds each model request.

- every ceiling is optional; a ceiling nobody wrote is not armed; the error-rate ceiling is armed
  only when both its threshold and its window are written;
- `maxParallel` is 4 unless written;
- `modelCallTimeoutSecs` (900), `maxModelRetries` (10, 0 honoured) and `modelRetryMaxDelaySecs`
  (60) bound every model request, each its default unless written (`Limits.model_calls`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, TypeVar

from gg.config.catalogue import (
    DEFAULT_MAX_MODEL_RETRIES,
    DEFAULT_MAX_PARALLEL,
    DEFAULT_MODEL_CALL_TIMEOUT_SECS,
    DEFAULT_MODEL_RETRY_MAX_DELAY_SECS,
    MAX_TIMEOUT_SECS,
)
from gg.config.part import Part
from gg.config.values import Number, Whole

__all__ = ["ErrorRateCeiling", "Limits", "ModelCallLimits"]


@dataclass(frozen=True)
class ErrorRateCeiling:
    """Breached when more than `threshold` of the last `window` turns were errors (window full)."""

    threshold: float
    window: int


Seconds = Annotated[float, Number(above=0, most=MAX_TIMEOUT_SECS, what="a number of seconds")]
N = TypeVar("N", int, float)


def _or(written: N | None, default: N) -> N:
    return default if written is None else written


@dataclass(frozen=True)
class ModelCallLimits:
    """What bounds each model request: one attempt's time, how many retries follow a failed one,
    and the longest wait before a retry (`modelCallTimeoutSecs`, `maxModelRetries`,
    `modelRetryMaxDelaySecs`)."""

    timeout_secs: float
    retries: int
    retry_max_delay_secs: float


class Limits(Part):
    """Run ceilings, each armed only when written; and how many agents take turns at once."""

    max_turns: Annotated[int, Whole(1)] | None = None
    max_runtime_secs: Annotated[float, Number(above=0, what="a number of seconds")] | None = None
    max_consecutive_errors: Annotated[int, Whole(1)] | None = None
    max_error_rate: Annotated[float, Number(above=0, most=1, what="a fraction")] | None = None
    error_rate_window: Annotated[int, Whole(1, what="a whole number of turns")] | None = None
    max_cost: Annotated[float, Number(above=0, what="an amount in USD")] | None = None
    max_parallel: Annotated[int, Whole(1, what="a whole number of agents")] | None = None
    model_call_timeout_secs: Seconds | None = None
    max_model_retries: Annotated[int, Whole(0, note="0 gives up on the first failure")] | None = None
    model_retry_max_delay_secs: Seconds | None = None

    @property
    def parallel(self) -> int:
        """How many agents take turns at once (`maxParallel`, 4 unless written); more queue."""
        return DEFAULT_MAX_PARALLEL if self.max_parallel is None else self.max_parallel

    @property
    def model_calls(self) -> ModelCallLimits:
        """What bounds each model request, every figure its default unless written."""
        return ModelCallLimits(
            timeout_secs=_or(self.model_call_timeout_secs, DEFAULT_MODEL_CALL_TIMEOUT_SECS),
            retries=_or(self.max_model_retries, DEFAULT_MAX_MODEL_RETRIES),
            retry_max_delay_secs=_or(self.model_retry_max_delay_secs, DEFAULT_MODEL_RETRY_MAX_DELAY_SECS),
        )

    @property
    def error_rate(self) -> ErrorRateCeiling | None:
        """The error-rate ceiling, armed only when both its threshold and window are written."""
        if self.max_error_rate is None or self.error_rate_window is None:
            return None
        return ErrorRateCeiling(self.max_error_rate, self.error_rate_window)
