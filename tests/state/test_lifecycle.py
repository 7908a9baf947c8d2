"""An issue's lifecycle (seed 003, "board"): open → in_progress → in_review → done | failed, retried up
to `maxRetries`, as the pure decider the dispatcher drives."""

from __future__ import annotations

from gg.state.board.lifecycle import Action, IssueEvent, IssueStatus, LifecycleStep, Progress, next_step

OPEN, WORKING, REVIEW = IssueStatus.OPEN, IssueStatus.IN_PROGRESS, IssueStatus.IN_REVIEW
DONE, FAILED = IssueStatus.DONE, IssueStatus.FAILED


def _walk(events: list[IssueEvent], *, reviewers: int, max_retries: int) -> list[tuple[str, int, str]]:
    now, walked = Progress(OPEN), []
    for event in events:
        step = next_step(now, event, reviewers=reviewers, max_retries=max_retries)
        assert step is not None, (now, event)
        now = step.progress
        walked.append((now.status.value, now.retries, step.action.value))
    return walked


def test_an_issue_without_reviewers_is_done_once_its_implementer_finishes() -> None:
    walked = _walk([IssueEvent.DISPATCHED, IssueEvent.FINISHED], reviewers=0, max_retries=1)
    assert walked == [("in_progress", 0, "wait"), ("done", 0, "settle")]


def test_each_reviewer_reviews_in_turn_and_the_last_approval_makes_it_done() -> None:
    events = [IssueEvent.DISPATCHED, IssueEvent.FINISHED, IssueEvent.APPROVED, IssueEvent.APPROVED]
    assert _walk(events, reviewers=2, max_retries=0) == [
        ("in_progress", 0, "wait"),
        ("in_review", 0, "review"),
        ("in_review", 0, "review"),
        ("done", 0, "settle"),
    ]


def test_changes_requested_send_it_back_to_a_new_implementer_without_charging_a_retry() -> None:
    events = [
        IssueEvent.DISPATCHED,
        IssueEvent.FINISHED,
        IssueEvent.APPROVED,
        IssueEvent.CHANGES_REQUESTED,
        IssueEvent.DISPATCHED,
    ]
    walked = _walk(events[:4], reviewers=2, max_retries=0)
    assert walked[-1] == ("in_progress", 0, "implement")
    reworked = next_step(Progress(WORKING, 0, 0), IssueEvent.FINISHED, reviewers=2, max_retries=0)
    assert reworked == LifecycleStep(Progress(REVIEW, 0, 0), Action.REVIEW)  # every reviewer reviews afresh


def test_an_unfinished_attempt_is_retried_up_to_max_retries_then_the_issue_fails() -> None:
    events = [IssueEvent.DISPATCHED, IssueEvent.UNFINISHED, IssueEvent.UNFINISHED, IssueEvent.UNFINISHED]
    assert _walk(events, reviewers=0, max_retries=2) == [
        ("in_progress", 0, "wait"),
        ("in_progress", 1, "implement"),
        ("in_progress", 2, "implement"),
        ("failed", 2, "settle"),
    ]
    assert _walk(events[:2], reviewers=0, max_retries=0)[-1] == ("failed", 0, "settle")


def test_a_review_that_ends_without_a_verdict_runs_again_within_the_retries() -> None:
    events = [
        IssueEvent.DISPATCHED,
        IssueEvent.FINISHED,
        IssueEvent.REVIEW_UNFINISHED,
        IssueEvent.REVIEW_UNFINISHED,
    ]
    assert _walk(events, reviewers=1, max_retries=1)[2:] == [
        ("in_review", 1, "review"),
        ("failed", 1, "settle"),
    ]


def test_final_statuses_and_unexpected_events_decide_nothing() -> None:
    for status in (DONE, FAILED):
        for event in IssueEvent:
            assert next_step(Progress(status), event, reviewers=1, max_retries=3) is None
    assert next_step(Progress(OPEN), IssueEvent.FINISHED, reviewers=0, max_retries=1) is None
    assert next_step(Progress(WORKING), IssueEvent.APPROVED, reviewers=1, max_retries=1) is None
    assert next_step(Progress(REVIEW), IssueEvent.DISPATCHED, reviewers=1, max_retries=1) is None
