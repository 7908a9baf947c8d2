"""An issue's lifecycle on the board (seed 003, "board"), as the pure decider the dispatcher drives:
open → in_progress → in_review → done | failed.

- `dispatched` (an implementer took the issue): open → in_progress; the dispatcher waits.
- `finished` (the implementer ended its work): → in_review, the first reviewer to run, when the
  issue names reviewers; else → done.
- `unfinished` (it ended without finishing: out of turns or time, a model failure): a new
  implementer takes the issue over while `retries < maxRetries` (counting one more), else → failed.
- `approved`: the next reviewer runs while some have not approved, else → done.
- `changes_requested`: → in_progress, reworked by a new implementer; rework is not a retry, and
  every reviewer reviews the reworked issue afresh.
- `review_unfinished` (a reviewer ended without a verdict): the review runs again while
  `retries < maxRetries` (counting one more), else → failed.
- done and failed are final. An event the issue's status does not expect (a program moved the
  issue meanwhile) decides nothing (`None`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class IssueStatus(StrEnum):
    OPEN = "open"
    IN_PROGRESS = "in_progress"
    IN_REVIEW = "in_review"
    DONE = "done"
    FAILED = "failed"

    @property
    def is_final(self) -> bool:
        return self in (IssueStatus.DONE, IssueStatus.FAILED)


class IssueEvent(StrEnum):
    DISPATCHED = "dispatched"
    FINISHED = "finished"
    UNFINISHED = "unfinished"
    APPROVED = "approved"
    CHANGES_REQUESTED = "changes_requested"
    REVIEW_UNFINISHED = "review_unfinished"


class Action(StrEnum):
    """What the dispatcher does next."""

    WAIT = "wait"  # an agent is at work on the issue
    IMPLEMENT = "implement"  # start an implementer on the issue
    REVIEW = "review"  # start the issue's next reviewer
    SETTLE = "settle"  # the issue is final: wake its waiters, dispatch what it unblocked


@dataclass(frozen=True)
class Progress:
    """Where an issue stands in its lifecycle."""

    status: IssueStatus
    retries: int = 0
    approvals: int = 0  # reviewers who approved the work as it stands


@dataclass(frozen=True)
class LifecycleStep:
    progress: Progress
    action: Action


def next_step(now: Progress, event: IssueEvent, *, reviewers: int, max_retries: int) -> LifecycleStep | None:
    """The issue's next step after `event`, for an issue naming `reviewers` reviewers."""
    match now.status, event:
        case IssueStatus.OPEN, IssueEvent.DISPATCHED:
            return LifecycleStep(Progress(IssueStatus.IN_PROGRESS, now.retries), Action.WAIT)
        case IssueStatus.IN_PROGRESS, IssueEvent.FINISHED:
            return _review_or_done(Progress(IssueStatus.IN_REVIEW, now.retries), reviewers)
        case IssueStatus.IN_PROGRESS, IssueEvent.UNFINISHED:
            return _retry(now, Action.IMPLEMENT, max_retries)
        case IssueStatus.IN_REVIEW, IssueEvent.APPROVED:
            return _review_or_done(Progress(now.status, now.retries, now.approvals + 1), reviewers)
        case IssueStatus.IN_REVIEW, IssueEvent.CHANGES_REQUESTED:
            return LifecycleStep(Progress(IssueStatus.IN_PROGRESS, now.retries), Action.IMPLEMENT)
        case IssueStatus.IN_REVIEW, IssueEvent.REVIEW_UNFINISHED:
            return _retry(now, Action.REVIEW, max_retries)
        case _:
            return None


def _review_or_done(progress: Progress, reviewers: int) -> LifecycleStep:
    if progress.approvals < reviewers:
        return LifecycleStep(progress, Action.REVIEW)
    return LifecycleStep(Progress(IssueStatus.DONE, progress.retries, progress.approvals), Action.SETTLE)


def _retry(now: Progress, action: Action, max_retries: int) -> LifecycleStep:
    if now.retries < max_retries:
        return LifecycleStep(Progress(now.status, now.retries + 1, now.approvals), action)
    return LifecycleStep(Progress(IssueStatus.FAILED, now.retries, now.approvals), Action.SETTLE)
