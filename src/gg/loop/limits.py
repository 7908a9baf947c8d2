"""Execution ceilings (`capabilitySet.limits`), decided here; the agent loop acts on them.

| ceiling | scope | checked | status |
|---|---|---|---|
| maxTurns | per agent | after each turn | exhausted |
| maxRuntimeSecs | run-wide | at each turn boundary, and wherever a turn stands once spent | timed_out |
| maxConsecutiveErrors | per agent | after each turn | limit_exceeded |
| maxErrorRate + errorRateWindow | per agent | after each turn, once the window is full | limit_exceeded |
| maxCost | run-wide | before each model call | limit_exceeded |

A ceiling nobody wrote is not armed. A turn the run's time runs out in stops there, unjudged
(`gg.loop.turn`): it counts among the turns taken and is charged to no ceiling. The consecutive
count is cleared only by a turn that did its declared work; a Fatal turn counts toward `turns`
but is charged to no ceiling. The error rate breaches only when strictly above the threshold.
Nothing here is ever told to the model.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from gg.outcome import Continue, ErrorKind, ErrorType, Fatal, TurnOutcome, is_error


class LimitName(StrEnum):
    TURNS = "turns"
    RUNTIME = "runtime"
    CONSECUTIVE_ERRORS = "consecutive_errors"
    ERROR_RATE = "error_rate"
    COST = "cost"


@dataclass(frozen=True)
class LoopLimits:
    max_turns: int | None = None
    max_runtime_secs: float | None = None
    max_consecutive_errors: int | None = None
    max_error_rate: float | None = None
    error_rate_window: int | None = None
    max_cost: float | None = None


@dataclass(frozen=True)
class Breach:
    limit: LimitName
    threshold: float
    observed: float
    turns: int
    window: int | None = None


@dataclass
class ErrorLedger:
    """One agent's record of its turns, as the ceilings read it."""

    turns: int = 0
    errors: int = 0
    consecutive: int = 0
    max_consecutive: int = 0
    recent: deque[bool] = field(default_factory=deque[bool])
    by_type: Counter[ErrorType] = field(default_factory=Counter[ErrorType])

    def record(self, outcome: TurnOutcome, window: int | None) -> None:
        self.turns += 1
        if isinstance(outcome, Fatal):
            return
        erred = is_error(outcome)
        if isinstance(outcome, Continue) and outcome.error is not None:
            self.by_type[outcome.error] += 1
        self.errors += erred
        self.consecutive = self.consecutive + 1 if erred else 0
        self.max_consecutive = max(self.max_consecutive, self.consecutive)
        if window:
            self.recent.append(erred)
            while len(self.recent) > window:
                self.recent.popleft()

    @classmethod
    def merged(cls, ledgers: list[ErrorLedger]) -> ErrorLedger:
        """One record of several agents' turns: counts summed, the longest streak of any."""
        merged = cls()
        for ledger in ledgers:
            merged.turns += ledger.turns
            merged.errors += ledger.errors
            merged.max_consecutive = max(merged.max_consecutive, ledger.max_consecutive)
            merged.by_type.update(ledger.by_type)
        return merged

    def to_wire(self) -> dict[str, Any]:
        """The session rollup of errors: totals, the longest streak, per kind and per type."""
        kinds = Counter[ErrorKind]()
        for error_type, count in self.by_type.items():
            kinds[error_type.kind] += count
        return {
            "turns": self.turns,
            "errors": self.errors,
            "maxConsecutive": self.max_consecutive,
            **{kind.value: kinds[kind] for kind in ErrorKind},
            "byType": {error_type.value: count for error_type, count in self.by_type.items()},
        }


def breach_after_turn(limits: LoopLimits, ledger: ErrorLedger) -> Breach | None:
    """The first per-agent ceiling the last recorded turn breached, if any."""
    if limits.max_consecutive_errors is not None and ledger.consecutive >= limits.max_consecutive_errors:
        return Breach(
            LimitName.CONSECUTIVE_ERRORS, limits.max_consecutive_errors, ledger.consecutive, ledger.turns
        )
    rate = _error_rate_breach(limits, ledger)
    if rate is not None:
        return rate
    if limits.max_turns is not None and ledger.turns >= limits.max_turns:
        return Breach(LimitName.TURNS, limits.max_turns, ledger.turns, ledger.turns)
    return None


def _error_rate_breach(limits: LoopLimits, ledger: ErrorLedger) -> Breach | None:
    window, threshold = limits.error_rate_window, limits.max_error_rate
    if window is None or threshold is None or len(ledger.recent) < window:
        return None
    observed = sum(ledger.recent) / window
    if observed <= threshold:
        return None
    return Breach(LimitName.ERROR_RATE, threshold, observed, ledger.turns, window=window)


def breach_of_runtime(limits: LoopLimits, elapsed_secs: float, turns: int) -> Breach | None:
    if limits.max_runtime_secs is None or elapsed_secs < limits.max_runtime_secs:
        return None
    return Breach(LimitName.RUNTIME, limits.max_runtime_secs, round(elapsed_secs, 3), turns)


def breach_of_cost(limits: LoopLimits, spent: float, turns: int) -> Breach | None:
    if limits.max_cost is None or spent < limits.max_cost:
        return None
    return Breach(LimitName.COST, limits.max_cost, spent, turns)
