"""Folding a turn into its one outcome: endings, the first error, feedback order."""

from gg.loop.calls import StrayCall, Submission, Unrunnable
from gg.loop.verdict import ProgramRun, TurnFacts, decide_turn
from gg.outcome import Continue, ErrorType, Finished
from gg.sandbox.execution import Execution, Failure
from gg.sandbox.membrane import CallCounts
from gg.sdk.scope import DeclaredEnding


def _run(
    call_id: str, failure: Failure | None = None, ending: str | None = None, replaced: int = 0
) -> ProgramRun:
    return ProgramRun(
        submission=Submission(call_id, "program"),
        source="program",
        execution=Execution(failure=failure, duration_ms=1.0),
        counts=CallCounts(),
        ending=None if ending is None else DeclaredEnding("finish", ending),
        endings_replaced=replaced,
    )


THROW = Failure(ErrorType.PROGRAM_THROW, "Error: first failed\n    at program.js:3:7")
SYNTAX = Failure(ErrorType.PROGRAM_THROW, "SyntaxError: Unexpected token ';'")


def test_an_ending_that_survived_its_program_finishes_the_turn() -> None:
    calls = [Submission("a", "x")]
    verdict = decide_turn(TurnFacts(calls, [_run("a", ending="done")], views_opened=0))
    assert verdict.outcome == Finished("done")


def test_a_failure_after_an_ending_revokes_it_and_warns_the_operator() -> None:
    calls = [Submission("a", "x")]
    verdict = decide_turn(TurnFacts(calls, [_run("a", THROW, ending="done")], views_opened=0))
    assert isinstance(verdict.outcome, Continue) and verdict.outcome.error is ErrorType.PROGRAM_THROW
    assert verdict.outcome.feedback == ("Runtime error\n----\n" + THROW.text,)
    assert any("revoked" in w for w in verdict.warnings)


def test_several_programs_record_the_first_failure_and_a_notice_comes_first() -> None:
    calls = [Submission("a", "x"), Submission("b", "y"), Submission("c", "z")]
    runs = [_run("a", THROW), _run("b", SYNTAX), _run("c")]
    outcome = decide_turn(TurnFacts(calls, runs, views_opened=0)).outcome
    assert isinstance(outcome, Continue) and outcome.error is ErrorType.PROGRAM_THROW
    headings = [message.split("\n", 1)[0] for message in outcome.feedback]
    assert headings == ["Notice", "Runtime error", "Runtime error"]
    assert "3 programs" in outcome.feedback[0]
    assert "first failed" in outcome.feedback[1] and "SyntaxError" in outcome.feedback[2]


def test_a_call_without_a_program_is_an_error_of_its_own_kind() -> None:
    outcome = decide_turn(TurnFacts([Unrunnable("a", "no program")], [], views_opened=0)).outcome
    assert isinstance(outcome, Continue) and outcome.error is ErrorType.MISSING_COMPLETION_NO_PROGRAM
    assert not any(m.startswith(("Runtime error", "Compiler error")) for m in outcome.feedback)


def test_a_reply_without_a_submission_is_an_error_turn_and_says_why() -> None:
    outcome = decide_turn(TurnFacts([], [], views_opened=0)).outcome
    assert isinstance(outcome, Continue) and outcome.error is ErrorType.MISSING_COMPLETION_NO_PROGRAM
    assert "submit_program" in outcome.feedback[0]


def test_a_stray_call_beside_a_program_is_warned_about_but_not_an_error() -> None:
    calls = [Submission("a", "x"), StrayCall("b", "write_file", "redirect")]
    verdict = decide_turn(TurnFacts(calls, [_run("a")], views_opened=1))
    assert verdict.outcome == Continue(feedback=(), error=None, report=verdict.outcome.report)  # type: ignore[union-attr]
    assert any("write_file" in w for w in verdict.warnings)


def test_a_clean_program_that_showed_nothing_earns_the_nothing_shown_notice() -> None:
    outcome = decide_turn(TurnFacts([Submission("a", "")], [_run("a")], views_opened=0)).outcome
    assert isinstance(outcome, Continue) and outcome.error is None
    assert len(outcome.feedback) == 1 and outcome.feedback[0].startswith("Notice\n----\n")
    assert "console.log" in outcome.feedback[0]


def test_a_clean_program_that_opened_a_view_earns_no_message() -> None:
    outcome = decide_turn(TurnFacts([Submission("a", "x")], [_run("a")], views_opened=1)).outcome
    assert isinstance(outcome, Continue) and outcome.feedback == ()


def test_replaced_endings_are_counted_for_the_operator() -> None:
    verdict = decide_turn(
        TurnFacts([Submission("a", "x")], [_run("a", ending="last", replaced=1)], views_opened=0)
    )
    assert verdict.outcome == Finished("last")
    assert any("1 time" in w for w in verdict.warnings)


def test_programs_skipped_after_an_ending_are_counted_for_the_operator() -> None:
    calls = [Submission("a", "x"), Submission("b", "y")]
    verdict = decide_turn(TurnFacts(calls, [_run("a", ending="stopped early")], views_opened=0))
    assert verdict.outcome == Finished("stopped early")
    assert any("1 later program" in w for w in verdict.warnings)
