"""Execution ceilings: each decided from the ledger, none armed unless written."""

from gg.errors import FatalFault
from gg.loop.limits import (
    ErrorLedger,
    LimitName,
    LoopLimits,
    breach_after_turn,
    breach_of_cost,
    breach_of_runtime,
)
from gg.outcome import Continue, ErrorType, Fatal, Finished

ERROR = Continue(error=ErrorType.PROGRAM_THROW)
FINE = Continue()


def _ledger(outcomes: list, window: int | None = None) -> ErrorLedger:
    ledger = ErrorLedger()
    for outcome in outcomes:
        ledger.record(outcome, window)
    return ledger


def test_no_ceiling_is_armed_unless_written() -> None:
    ledger = _ledger([ERROR] * 50, window=10)
    assert breach_after_turn(LoopLimits(), ledger) is None
    assert breach_of_runtime(LoopLimits(), 10_000.0, 50) is None
    assert breach_of_cost(LoopLimits(), 1_000.0, 50) is None


def test_the_turn_ceiling_breaches_when_the_agent_has_taken_that_many_turns() -> None:
    breach = breach_after_turn(LoopLimits(max_turns=2), _ledger([FINE, FINE]))
    assert breach is not None
    assert (breach.limit, breach.threshold, breach.turns) == (LimitName.TURNS, 2, 2)
    assert breach_after_turn(LoopLimits(max_turns=2), _ledger([FINE])) is None


def test_the_consecutive_count_is_cleared_only_by_a_turn_that_did_its_work() -> None:
    ledger = _ledger([ERROR, ERROR, FINE, ERROR])
    assert ledger.consecutive == 1 and ledger.max_consecutive == 2
    assert _ledger([ERROR, Finished("x")]).consecutive == 0


def test_a_fatal_turn_counts_as_a_turn_but_is_charged_to_no_ceiling() -> None:
    ledger = _ledger([ERROR, Fatal(FatalFault.HOST_FAULT)])
    assert ledger.turns == 2 and ledger.errors == 1 and ledger.consecutive == 1


def test_consecutive_errors_breach_at_the_threshold() -> None:
    limits = LoopLimits(max_consecutive_errors=3)
    assert breach_after_turn(limits, _ledger([ERROR, ERROR])) is None
    breach = breach_after_turn(limits, _ledger([ERROR, ERROR, ERROR]))
    assert breach is not None and breach.limit is LimitName.CONSECUTIVE_ERRORS and breach.observed == 3


def test_the_error_rate_breaches_only_strictly_above_and_once_the_window_is_full() -> None:
    limits = LoopLimits(max_error_rate=0.5, error_rate_window=10)
    five = [ERROR, FINE] * 5
    assert breach_after_turn(limits, _ledger(five, 10)) is None
    six = [ERROR] * 6 + [FINE] * 4
    breach = breach_after_turn(limits, _ledger(six, 10))
    assert breach is not None and breach.limit is LimitName.ERROR_RATE and breach.window == 10
    assert breach_after_turn(limits, _ledger([ERROR] * 9, 10)) is None  # window not yet full


def test_runtime_and_cost_breach_once_reached() -> None:
    assert breach_of_runtime(LoopLimits(max_runtime_secs=5), 4.9, 1) is None
    runtime = breach_of_runtime(LoopLimits(max_runtime_secs=5), 5.0, 1)
    assert runtime is not None and runtime.limit is LimitName.RUNTIME
    cost = breach_of_cost(LoopLimits(max_cost=25.0), 25.41, 37)
    assert cost is not None and (cost.limit, cost.observed, cost.turns) == (LimitName.COST, 25.41, 37)
