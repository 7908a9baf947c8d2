"""The run's board (seed 003, "board"; capability `project-management`): epics and issues every agent
of the run holds, one store for the run (`board-0`).

- An epic's id is its prefix upper-cased, 3 to 6 ASCII letters (`invalid-argument` otherwise),
  and a prefix taken is `conflict` (the records: `gg.state.board.issue`).
- An issue's id is gg's: its epic's prefix (`ISSUE` without one) and the next number of that
  prefix's one counter for the run, so a number is never handed out twice, not even after its
  issue is removed. An epic that does not exist is `not-found`; the blocked-by list follows
  `gg.state.dag`, the text fields `gg.state.items`.
- At `maxEpics` or `maxIssues` the next one is `limit-exceeded`. An update needs one field at
  least (what it changes: `IssuePatch`); a program may set `open`, `in_progress` or `done`, but an
  issue naming reviewers is done only once they approve (`conflict`: its implementer ends its work
  and gg starts them).
  Removing an epic ungroups its issues; removing an issue strips it from every list. An unknown id
  is `not-found`; a refused write changes nothing.
- gg moves an issue through its lifecycle with `move` (`gg.state.board.lifecycle`), and names the
  implementer at work on it with `assign`.
- Thread-safe: one lock holds every read and write. Each write counts one more `version` and hands
  back the board as it stood right after (`Written`). The dispatch hooks are called once the lock
  is released: `issue_filed` for each issue created, `issue_settled` for each that became done or
  failed, however it did.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from gg.config.modules import BoardCaps
from gg.errors import ErrorCode
from gg.state.board.issue import Epic, Issue, IssuePatch, NewIssue, patched
from gg.state.board.lifecycle import IssueEvent, IssueStatus, LifecycleStep, next_step
from gg.state.dag import checked_blockers, unknown
from gg.state.items import Keep, checked_id, checked_text, checked_title, optional_text
from gg.state.refusal import Refusal, worded
from gg.telemetry.module_events import BoardState

T = TypeVar("T")
UNGROUPED_PREFIX = "ISSUE"
PREFIX = re.compile(r"[A-Za-z]{3,6}")
SETTABLE = (IssueStatus.OPEN, IssueStatus.IN_PROGRESS, IssueStatus.DONE)  # by a program


class BoardHooks(Protocol):
    """What the dispatcher is told."""

    def issue_filed(self, issue_id: str) -> None:
        """An issue was created: dispatch an implementer of its `agent` once its blockers are done."""
        ...

    def issue_settled(self, issue_id: str, status: IssueStatus) -> None:
        """An issue became done or failed: wake its waiters; dispatch what it unblocked."""
        ...


@dataclass(frozen=True)
class BoardUsage:
    epics: int
    max_epics: int
    issues: int
    max_issues: int

    def to_wire(self) -> dict[str, int]:
        return {
            "epics": self.epics,
            "maxEpics": self.max_epics,
            "issues": self.issues,
            "maxIssues": self.max_issues,
        }


@dataclass(frozen=True)
class BoardSnapshot:
    version: int
    epics: tuple[dict[str, Any], ...]
    issues: tuple[dict[str, Any], ...]

    def payload(self, module_id: str) -> BoardState:
        return BoardState(module_id=module_id, epics=list(self.epics), issues=list(self.issues))


@dataclass(frozen=True)
class Written(Generic[T]):
    """A write's result and the board as it stood right after it."""

    value: T
    snapshot: BoardSnapshot


@dataclass(eq=False)
class Board:
    """The run's one board; two handles on it hold the same object."""

    caps: BoardCaps
    hooks: BoardHooks | None = None
    _epics: dict[str, Epic] = field(default_factory=dict[str, Epic])
    _issues: dict[str, Issue] = field(default_factory=dict[str, Issue])
    _numbers: dict[str, int] = field(default_factory=dict[str, int])  # the last number of each prefix
    _version: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _calls: list[Callable[[], None]] = field(default_factory=list[Callable[[], None]])

    def snapshot(self) -> BoardSnapshot:
        with self._lock:
            return self._snapshot()

    @property
    def version(self) -> int:
        with self._lock:
            return self._version

    def issue(self, issue_id: str) -> Issue | None:
        with self._lock:
            return self._issues.get(issue_id)

    def waits_among_issues(self) -> dict[str, tuple[str, ...]]:
        """Each open issue and what it waits on among issues: those it is blocked by not yet done."""
        with self._lock:
            done = IssueStatus.DONE
            return {
                i.id: tuple(b for b in i.spec.blocked_by if self._issues[b].status is not done)
                for i in self._issues.values()
                if i.status is IssueStatus.OPEN
            }

    def dispatchable(self) -> list[str]:
        """The open issues no agent holds whose blockers are all done, in the order filed."""
        with self._lock:
            return [i.id for i in self._issues.values() if self._is_dispatchable(i)]

    def create_epic(self, prefix: str, title: str, description: str) -> Written[tuple[str, BoardUsage]]:
        return self._write(lambda: self._create_epic(prefix, title, description))

    def create_issue(self, new: NewIssue) -> Written[tuple[str, BoardUsage]]:
        return self._write(lambda: self._create_issue(new))

    def update_issue(self, issue_id: str, patch: IssuePatch) -> Written[None]:
        return self._write(lambda: self._update_issue(issue_id, patch))

    def set_issue_blocked_by(self, issue_id: str, blocked_by: Sequence[str]) -> Written[None]:
        return self._write(lambda: self._set_blocked_by(issue_id, blocked_by))

    def remove_epic(self, epic_id: str) -> Written[BoardUsage]:
        return self._write(lambda: self._remove_epic(epic_id))

    def remove_issue(self, issue_id: str) -> Written[BoardUsage]:
        return self._write(lambda: self._remove_issue(issue_id))

    def move(
        self, issue_id: str, event: IssueEvent, agent_id: str | None = None
    ) -> Written[LifecycleStep | None]:
        """gg's move of an issue after `event` (`agent_id`: the agent now at work on it)."""
        return self._write(lambda: self._move(issue_id, event, agent_id))

    def assign(self, issue_id: str, agent_id: str) -> Written[None]:
        """gg put agent `agent_id` to work on the issue (a new implementer, its status unchanged)."""
        return self._write(lambda: self._put(replace(self._get(issue_id), assigned_agent_id=agent_id)))

    def usage(self) -> BoardUsage:
        with self._lock:
            return BoardUsage(len(self._epics), self.caps.max_epics, len(self._issues), self.caps.max_issues)

    def _write(self, mutate: Callable[[], T]) -> Written[T]:
        with self._lock:
            value = mutate()
            self._version += 1
            snapshot = self._snapshot()
            calls, self._calls = self._calls, []
        for call in calls:
            call()
        return Written(value, snapshot)

    def _snapshot(self) -> BoardSnapshot:
        epics = tuple(epic.to_wire() for epic in self._epics.values())
        return BoardSnapshot(self._version, epics, tuple(issue.to_wire() for issue in self._issues.values()))

    def _create_epic(self, prefix: str, title: str, description: str) -> tuple[str, BoardUsage]:
        if PREFIX.fullmatch(prefix) is None:
            shown = prefix if len(prefix) <= 20 else prefix[:20] + "…"
            raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("board-prefix", prefix=shown))
        epic = Epic(prefix.upper(), checked_title(title), checked_text(description, "description"))
        if epic.id in self._epics:
            raise Refusal(ErrorCode.CONFLICT, worded("board-epic-taken", id=epic.id))
        if len(self._epics) >= self.caps.max_epics:
            full = worded("board-full", cap=self.caps.max_epics, nouns="epics")
            raise Refusal(ErrorCode.LIMIT_EXCEEDED, full)
        self._epics[epic.id] = epic
        return epic.id, self.usage()

    def _create_issue(self, new: NewIssue) -> tuple[str, BoardUsage]:
        spec = self._checked_spec(new)
        if len(self._issues) >= self.caps.max_issues:
            full = worded("board-full", cap=self.caps.max_issues, nouns="issues")
            raise Refusal(ErrorCode.LIMIT_EXCEEDED, full)
        prefix = spec.epic_id or UNGROUPED_PREFIX
        number = self._numbers.get(prefix, 0) + 1
        issue_id = f"{prefix}-{number}"
        blockers = checked_blockers(issue_id, spec.blocked_by, self._graph(), "issue")
        self._numbers[prefix] = number
        self._issues[issue_id] = Issue(issue_id, replace(spec, blocked_by=blockers))
        hooks = self.hooks
        if hooks is not None:
            self._calls.append(lambda: hooks.issue_filed(issue_id))
        return issue_id, self.usage()

    def _checked_spec(self, new: NewIssue) -> NewIssue:
        self._known_epic(new.epic_id)
        return replace(
            new,
            title=checked_title(new.title),
            in_scope=checked_text(new.in_scope, "in_scope"),
            out_of_scope=checked_text(new.out_of_scope, "out_of_scope"),
            completion_criteria=checked_text(new.completion_criteria, "completion_criteria"),
            agent=checked_id(new.agent, "agent"),
            description=optional_text(new.description, "description"),
            reviewers=tuple(dict.fromkeys(checked_id(name, "reviewers") for name in new.reviewers)),
        )

    def _update_issue(self, issue_id: str, patch: IssuePatch) -> None:
        if patch.is_empty():
            raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("item-update-empty"))
        issue = self._get(issue_id)
        spec = patched(issue.spec, patch)
        if not isinstance(patch.epic_id, Keep):
            self._known_epic(patch.epic_id)
        progress = issue.progress
        if patch.status is not None:
            if patch.status not in SETTABLE:
                raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("board-status"))
            _check_unreviewed(issue, patch.status)
            progress = replace(progress, status=patch.status)
        self._put(replace(issue, spec=spec, progress=progress))

    def _set_blocked_by(self, issue_id: str, blocked_by: Sequence[str]) -> None:
        issue = self._get(issue_id)
        blockers = checked_blockers(issue_id, blocked_by, self._graph(), "issue")
        self._put(replace(issue, spec=replace(issue.spec, blocked_by=blockers)))

    def _remove_epic(self, epic_id: str) -> BoardUsage:
        if epic_id not in self._epics:
            raise Refusal(ErrorCode.NOT_FOUND, worded("item-missing", noun="epic", id=_shown(epic_id)))
        del self._epics[epic_id]
        for issue in list(self._issues.values()):
            if issue.spec.epic_id == epic_id:
                self._issues[issue.id] = replace(issue, spec=replace(issue.spec, epic_id=None))
        return self.usage()

    def _remove_issue(self, issue_id: str) -> BoardUsage:
        self._get(issue_id)
        del self._issues[issue_id]
        for issue in list(self._issues.values()):
            if issue_id in issue.spec.blocked_by:
                kept = tuple(b for b in issue.spec.blocked_by if b != issue_id)
                self._issues[issue.id] = replace(issue, spec=replace(issue.spec, blocked_by=kept))
        return self.usage()

    def _move(self, issue_id: str, event: IssueEvent, agent_id: str | None) -> LifecycleStep | None:
        issue = self._get(issue_id)
        reviewers = len(issue.spec.reviewers)
        step = next_step(issue.progress, event, reviewers=reviewers, max_retries=self.caps.max_retries)
        if step is not None:
            assigned = agent_id if agent_id is not None else issue.assigned_agent_id
            self._put(replace(issue, progress=step.progress, assigned_agent_id=assigned))
        return step

    def _put(self, issue: Issue) -> None:
        """Store `issue`; when it has just become final, the dispatcher is told once the lock is released."""
        before = self._issues[issue.id].status
        self._issues[issue.id] = issue
        hooks = self.hooks
        if hooks is not None and issue.status.is_final and not before.is_final:
            status = issue.status
            self._calls.append(lambda: hooks.issue_settled(issue.id, status))

    def _get(self, issue_id: str) -> Issue:
        issue = self._issues.get(issue_id)
        if issue is None:
            raise Refusal(ErrorCode.NOT_FOUND, worded("item-missing", noun="issue", id=_shown(issue_id)))
        return issue

    def _known_epic(self, epic_id: str | None) -> None:
        if epic_id is not None and epic_id not in self._epics:
            raise Refusal(ErrorCode.NOT_FOUND, unknown(_shown(epic_id), "epic_id", "epic"))

    def _graph(self) -> dict[str, tuple[str, ...]]:
        return {issue.id: issue.spec.blocked_by for issue in self._issues.values()}

    def _is_dispatchable(self, issue: Issue) -> bool:
        if issue.status is not IssueStatus.OPEN or issue.assigned_agent_id is not None:
            return False
        done = IssueStatus.DONE
        return all(b in self._issues and self._issues[b].status is done for b in issue.spec.blocked_by)


def _check_unreviewed(issue: Issue, status: IssueStatus) -> None:
    """Raises `Refusal` when `status` would make `issue` done past the reviewers it names."""
    reviewers = issue.spec.reviewers
    if status is IssueStatus.DONE and reviewers and issue.status is not IssueStatus.DONE:
        named = ", ".join(f"`{name}`" for name in reviewers)
        raise Refusal(ErrorCode.CONFLICT, worded("board-done-unreviewed", id=issue.id, reviewers=named))


def _shown(identifier: str) -> str:
    return identifier if len(identifier) <= 100 else identifier[:100] + "…"
