"""The words both terminal views share: ceiling lines, and where a failed program stopped."""

from __future__ import annotations

import pytest
from rich.console import Console

from gg.loop.limits import (
    ErrorLedger,
    LimitName,
    LoopLimits,
    breach_after_turn,
    breach_of_cost,
    breach_of_runtime,
)
from gg.outcome import Continue, ErrorType
from gg.record.records import LimitRecord, error_location
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import CodeExecution, LimitExceeded
from gg.terminal.display import LiveDisplay
from gg.terminal.glyphs import ASCII, CEILINGS, UNICODE, ceiling_line

from .sample import RUN_ID, StepClock

PY_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "program.py", line 6, column 1, in <module>\n'
    "    f()\n"
    '  File "program.py", line 4, column 12, in f\n'
    "    at = 1/0\n"
    "ZeroDivisionError: division by zero"
)


def limit(name: str, threshold: float, observed: float, turns: int, window: int | None = None) -> LimitRecord:
    return LimitRecord("root", name, threshold, observed, turns, window)


def test_a_ceiling_that_stops_on_reaching_its_threshold_says_reached_never_a_false_inequality() -> None:
    line = ceiling_line(limit("consecutive_errors", 3, 3, 3), UNICODE)
    assert line == "! ceiling reached: 3 consecutive errors ≥ maxConsecutiveErrors 3 (after 3 turns)"
    assert ceiling_line(limit("turns", 12, 12, 12), UNICODE) == "! ceiling reached: 12 turns ≥ maxTurns 12"
    assert ceiling_line(limit("runtime", 60, 61.25, 4), ASCII) == (
        "! ceiling reached: runtime 61.25 s >= maxRuntimeSecs 60 (after 4 turns)"
    )
    assert ceiling_line(limit("cost", 1, 1.003, 7), UNICODE) == (
        "! ceiling reached: cost $1.0030 ≥ maxCost 1 (after 7 turns)"
    )


def test_the_error_rate_stops_only_above_its_threshold_and_says_exceeded() -> None:
    assert ceiling_line(limit("error_rate", 0.5, 0.6, 9, window=5), UNICODE) == (
        "! ceiling exceeded: error rate 0.6 over the last 5 turns > maxErrorRate 0.5 (after 9 turns)"
    )


def _ledger(errors: int, turns: int) -> ErrorLedger:
    ledger = ErrorLedger()
    for number in range(turns):
        erred = number >= turns - errors
        ledger.record(Continue(error=ErrorType.PROGRAM_THROW) if erred else Continue(), 4)
    return ledger


def _breaches_at_its_threshold(name: LimitName) -> bool:
    """Whether the decider stops an agent whose figure equals the ceiling exactly."""
    match name:
        case LimitName.TURNS:
            return breach_after_turn(LoopLimits(max_turns=4), _ledger(0, 4)) is not None
        case LimitName.CONSECUTIVE_ERRORS:
            return breach_after_turn(LoopLimits(max_consecutive_errors=2), _ledger(2, 3)) is not None
        case LimitName.ERROR_RATE:
            rate = LoopLimits(max_error_rate=0.5, error_rate_window=4)
            return breach_after_turn(rate, _ledger(2, 4)) is not None
        case LimitName.RUNTIME:
            return breach_of_runtime(LoopLimits(max_runtime_secs=60), 60.0, 1) is not None
        case LimitName.COST:
            return breach_of_cost(LoopLimits(max_cost=1.0), 1.0, 1) is not None


@pytest.mark.parametrize("name", list(LimitName))
def test_each_ceilings_line_states_the_rule_its_decider_applies(name: LimitName) -> None:
    assert name.value in CEILINGS
    assert CEILINGS[name.value].exceeded is not _breaches_at_its_threshold(name)


def test_the_live_display_states_a_ceiling_truly() -> None:
    out = Console(record=True, width=120, color_system=None)
    telemetry = Telemetry(RUN_ID, [LiveDisplay(out)], clock=StepClock())
    telemetry.emit("root", 3, LimitExceeded(limit="consecutive_errors", threshold=3, observed=3, turns=3))
    text = out.export_text()
    assert "ceiling reached: 3 consecutive errors ≥ maxConsecutiveErrors 3 (after 3 turns)" in text
    assert ">" not in text.replace("≥", "")


def test_a_python_traceback_is_located_at_its_innermost_frame() -> None:
    assert error_location(PY_TRACEBACK) == "program.py:4:12"
    assert error_location('Traceback (most recent call last):\n  File "program.py", line 2\nE') == (
        "program.py:2"
    )


def test_the_live_display_shows_where_a_python_program_failed() -> None:
    out = Console(record=True, width=200, color_system=None)
    telemetry = Telemetry(RUN_ID, [LiveDisplay(out)], clock=StepClock())
    telemetry.emit(
        "root",
        1,
        CodeExecution(
            submission=1,
            ok=False,
            tool_calls=0,
            api_calls=0,
            duration_ms=3.0,
            logs=[],
            error=PY_TRACEBACK,
            error_type="program_throw",
        ),
    )
    assert (
        "✗ submission 1: program_throw at program.py:4:12 — ZeroDivisionError: division by zero"
        in out.export_text()
    )
