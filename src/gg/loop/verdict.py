"""Folding a turn's calls and program runs into its one outcome (seed 001, "Turn outcomes").

Pure: takes what happened, returns the outcome with its feedback and the operator's notes.
- An ending that survived its program finishes the session; its text is the final word.
- Otherwise the turn continues, recording at most one error: the first failure in submission
  order (a call without a program counts as `missing_completion_no_program`; a reply with no
  `submit_program` call at all is that error too).
- Feedback: notices first, then each failed program's message in submission order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gg import prompts
from gg.loop.calls import CallClass, StrayCall, Submission, Unrunnable
from gg.loop.chain import MAX_PROGRAM_CHAIN, Declined
from gg.outcome import Continue, ErrorType, Finished, TurnOutcome
from gg.sandbox.execution import Execution
from gg.sandbox.membrane import CallCounts
from gg.sdk.scope import DeclaredEnding

MAX_REPORT_BYTES = 200


@dataclass(frozen=True)
class ProgramRun:
    """One submission, run: a chain of one or more programs folded into one (see `chain`).

    `source` is the last program that ran; `declined` says why a hand-over was not run.
    """

    submission: Submission
    source: str
    execution: Execution
    counts: CallCounts
    ending: DeclaredEnding | None = None
    endings_replaced: int = 0
    links: int = 1
    declined: Declined | None = None

    @property
    def surviving_ending(self) -> DeclaredEnding | None:
        """An uncaught throw or a ceiling revokes the ending; a caught failure does not."""
        return self.ending if self.execution.ok else None

    @property
    def ending_revoked(self) -> bool:
        return self.ending is not None and not self.execution.ok


@dataclass(frozen=True)
class TurnFacts:
    calls: Sequence[CallClass]
    runs: Sequence[ProgramRun]
    views_opened: int
    print_call: str = "console.log"
    rerun_call: str = "gg.programs.rerun"


@dataclass(frozen=True)
class TurnVerdict:
    outcome: TurnOutcome
    warnings: tuple[str, ...] = field(default=())


def decide_turn(facts: TurnFacts) -> TurnVerdict:
    """The turn's outcome, its feedback messages and the warnings for the operator."""
    warnings = tuple(_warnings(facts))
    ended = facts.runs[-1].surviving_ending if facts.runs else None
    if ended is not None:
        return TurnVerdict(Finished(ended.final_text, ended.kind, ended.items), warnings)
    error = first_error(facts)
    feedback = (*_notices(facts, error), *_failure_messages(facts.runs))
    return TurnVerdict(Continue(feedback=feedback, error=error, report=_report(facts)), warnings)


def first_error(facts: TurnFacts) -> ErrorType | None:
    runs = {run.submission.call_id: run for run in facts.runs}
    submitted = False
    for call in facts.calls:
        match call:
            case Unrunnable():
                return ErrorType.MISSING_COMPLETION_NO_PROGRAM
            case Submission(call_id=call_id):
                submitted = True
                run = runs.get(call_id)
                if run is not None and run.execution.failure is not None:
                    return run.execution.failure.type
            case StrayCall():
                pass
    return None if submitted else ErrorType.MISSING_COMPLETION_NO_PROGRAM


def _notices(facts: TurnFacts, error: ErrorType | None) -> list[str]:
    notices: list[str] = []
    if not any(isinstance(call, Submission | Unrunnable) for call in facts.calls):
        notices.append(prompts.render("notice-no-submission"))
    if len(facts.runs) > 1:
        notices.append(prompts.render("notice-several-programs", count=len(facts.runs)))
    for run in facts.runs:
        if run.declined is not None:
            notices.append(
                prompts.render(
                    f"notice-handover-{run.declined.value}", rerun=facts.rerun_call, bound=MAX_PROGRAM_CHAIN
                )
            )
    if _showed_nothing(facts, error):
        notices.append(prompts.render("notice-nothing-shown", print_call=facts.print_call))
    return notices


def _showed_nothing(facts: TurnFacts, error: ErrorType | None) -> bool:
    """The turn's programs ran cleanly without a single SDK call or view: nothing they did can
    reach the model, which most likely meant to show itself something."""
    calls = sum(run.counts.api_calls for run in facts.runs)
    return bool(facts.runs) and error is None and facts.views_opened == 0 and calls == 0


def _failure_messages(runs: Sequence[ProgramRun]) -> list[str]:
    return [
        prompts.render("failure", heading=run.execution.failure.heading, text=run.execution.failure.text)
        for run in runs
        if run.execution.failure is not None
    ]


def _warnings(facts: TurnFacts) -> list[str]:
    warnings = [
        f"the model called `{call.name}`, a tool this mode does not offer; it was not run"
        for call in facts.calls
        if isinstance(call, StrayCall)
    ]
    for run in facts.runs:
        name = run.submission.program_id or run.submission.call_id
        if run.ending_revoked:
            warnings.append(f"program {name} declared an ending and then failed; the ending was revoked")
        if run.endings_replaced:
            warnings.append(
                f"program {name} replaced its ending {run.endings_replaced} time(s); the last call stands"
            )
        if run.declined is not None:
            warnings.append(f"program {name}: its hand-over was not run: {_DECLINED_WHY[run.declined]}")
    submitted = sum(isinstance(call, Submission) for call in facts.calls)
    if facts.runs and facts.runs[-1].surviving_ending and submitted > len(facts.runs):
        warnings.append(
            f"the session ended; {submitted - len(facts.runs)} later program(s) of this reply were not run"
        )
    return warnings


_DECLINED_WHY = {
    Declined.FAILED: "the program failed after handing over",
    Declined.ENDED: "the program also ended the session",
    Declined.BOUND: f"the submission already ran {MAX_PROGRAM_CHAIN} programs",
}


def _report(facts: TurnFacts) -> str:
    """One line for whoever spawned the agent: what the turn produced. An error turn is told by
    its first failure (the one its error type names); otherwise by the last program."""
    failed = next((run.execution.failure for run in facts.runs if run.execution.failure), None)
    if not facts.runs:
        line = "its reply carried no program"
    elif failed is not None:
        line = f"its program failed: {failed.headline}"
    elif facts.runs[-1].execution.logs:
        line = f"its last program logged: {facts.runs[-1].execution.logs[-1]}"
    else:
        line = "its last program ran and reported nothing"
    return line.encode("utf-8")[:MAX_REPORT_BYTES].decode("utf-8", "ignore")
