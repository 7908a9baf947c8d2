"""Hand-over chains: when a hand-over runs, when it is declined, and how links fold into one."""

from __future__ import annotations

from gg.loop.chain import (
    MAX_PROGRAM_CHAIN,
    Declined,
    Handover,
    Link,
    fold_counts,
    fold_executions,
    next_program,
)
from gg.outcome import ErrorType
from gg.sandbox.execution import Execution, Failure
from gg.sandbox.membrane import CallCounts
from gg.sdk.scope import Declarations, DeclaredEnding

FAILED = Failure(ErrorType.PROGRAM_THROW, "Error: boom")


def _link(handover: str | None = None, failure: Failure | None = None, ending: bool = False) -> Link:
    declarations = Declarations(handover=handover)
    if ending:
        declarations.declare_ending(DeclaredEnding("finish", "done"))
    return Link(
        "src", Execution(failure=failure, duration_ms=2.0, logs=("a",)), CallCounts(1, 1), declarations
    )


def test_a_clean_program_hands_over_its_replacement() -> None:
    assert next_program(_link("next"), links_run=1) == Handover("next")
    assert next_program(_link(), links_run=1) is None


def test_a_failure_after_the_hand_over_revokes_it() -> None:
    assert next_program(_link("next", failure=FAILED), links_run=1) is Declined.FAILED


def test_an_ending_outranks_a_hand_over() -> None:
    assert next_program(_link("next", ending=True), links_run=1) is Declined.ENDED


def test_a_submission_runs_at_most_four_programs() -> None:
    assert MAX_PROGRAM_CHAIN == 4
    assert next_program(_link("next"), links_run=3) == Handover("next")
    assert next_program(_link("next"), links_run=4) is Declined.BOUND


def test_a_chain_folds_into_one_execution_summing_what_accumulates() -> None:
    first = Execution(failure=None, duration_ms=2.0, logs=("one",), compile_ms=None)
    last = Execution(failure=FAILED, duration_ms=3.0, logs=("two",), logs_suppressed=1)
    folded = fold_executions([first, last])
    assert folded.failure == FAILED and folded.duration_ms == 5.0
    assert folded.logs == ("one", "two") and folded.logs_suppressed == 1 and folded.compile_ms is None
    assert fold_counts([CallCounts(2, 1), CallCounts(3, 2)]) == CallCounts(5, 3)
