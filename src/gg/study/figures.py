"""A run's figures, read from its own record: the `run_finished` event and its summary.

- turns, programs (code executions), error turns in all and by type, input and output tokens,
  cost (None when no reply was priced) and the run's wall time, as the run itself reported them;
- a record without `run_finished` (a run gg could not finish) reads as status `unfinished` with
  whatever the record holds: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.telemetry.events import Event, RunFinished, UsageKey

__all__ = ["UNFINISHED", "RunFigures", "figures_of"]

UNFINISHED = "unfinished"


@dataclass(frozen=True)
class RunFigures:
    status: str
    exit_code: int | None = None
    turns: int = 0
    programs: int = 0
    error_turns: int = 0
    errors_by_type: Mapping[str, int] = field(default_factory=dict[str, int])
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    wall_ms: float = 0.0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


def figures_of(events: Iterable[Event]) -> RunFigures:
    """The figures of the run whose events these are."""
    finished = next((e.payload for e in events if isinstance(e.payload, RunFinished)), None)
    if finished is None:
        return RunFigures(UNFINISHED)
    summary: Mapping[str, Any] = finished.summary or {}
    errors: Mapping[str, Any] = summary.get("errors") or {}
    usage: Mapping[str, Any] = summary.get("usage") or {}
    cost = usage.get("costUsd")
    return RunFigures(
        status=finished.status,
        exit_code=finished.exit_code,
        turns=finished.turns,
        programs=_whole(summary.get("codeExecutions")),
        error_turns=_whole(errors.get("errors")),
        errors_by_type={str(kind): _whole(count) for kind, count in (errors.get("byType") or {}).items()},
        input_tokens=_whole(usage.get(UsageKey.INPUT)),
        output_tokens=_whole(usage.get(UsageKey.OUTPUT)),
        cost_usd=float(cost) if isinstance(cost, int | float) else None,
        wall_ms=finished.duration_ms,
    )


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
