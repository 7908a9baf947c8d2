"""One holder's handle on the run's board (seed 003, "board"). Every agent of a run that has a board
holds one, with or without the capability (without it, it makes no calls).

The handle's four answers, for the module framework to plug in:
- open: `BoardHandle(board, policy, assigned_issue)` on the run's one `Board`, which the run makes
  once (store id `board-0`) from `gg.config.modules.board_caps`; a holder's roster gives `policy`.
- prompt: nothing; the board is reached through its calls alone.
- report: `restate(id)` is the board as it stands (`board_state`); `drain(id)` is one snapshot
  per write made through this handle since the last drain, in order, and then, when the board
  has moved since under another holder or gg, one more as it stands: every holder re-emits its
  own snapshot, and reports only its own writes.
- fork and share: the board always links (`links_on_fork`); `share()` and `copy()` are a new
  handle on the same board and id, reporting from the board's head, so it is handed no backlog.
- transfer: `adopt(policy, assigned_issue)` always carries it: the successor's handle on the same
  board. A board is never dropped or incompatible while the run has one.
The dispatch hooks are the board's (`gg.state.board.BoardHooks`): an issue filed means "dispatch
an implementer once its blockers are done", an issue settled "wake its waiters".
The rules that differ per agent live here, since the store is shared: `create_issue`'s `agent`
must be an implementer of this agent's roster and each reviewer one of its reviewers, and its
profile may require reviewers (`invalid-argument` otherwise); waiting on the issue this agent was
assigned is `invalid-argument`, on an issue the board does not hold `not-found`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from gg.errors import ErrorCode
from gg.state.board.issue import IssuePatch, NewIssue
from gg.state.board.store import Board, BoardSnapshot, BoardUsage, Written
from gg.state.refusal import Refusal, worded
from gg.telemetry.events import Payload

T = TypeVar("T")


@dataclass(frozen=True)
class IssuePolicy:
    """Whom this agent may put to work through the board: its roster's implementers and reviewers,
    and whether its profile requires reviewers on every issue."""

    implementers: tuple[str, ...] = ()
    reviewers: tuple[str, ...] = ()
    require_reviewers: bool = False


class BoardHandle:
    def __init__(self, board: Board, policy: IssuePolicy = IssuePolicy(), assigned_issue: str | None = None):
        self.board = board
        self.policy = policy
        self.assigned_issue = assigned_issue  # the issue this agent implements or reviews, if any
        self._unreported: list[BoardSnapshot] = []
        self._reported = board.version  # the board's version as this handle last reported it

    def links_on_fork(self) -> bool:
        return True

    def share(self) -> BoardHandle:
        return BoardHandle(self.board, self.policy, self.assigned_issue)

    def copy(self) -> BoardHandle:
        return self.share()

    def adopt(self, policy: IssuePolicy, assigned_issue: str | None = None) -> BoardHandle:
        return BoardHandle(self.board, policy, assigned_issue)

    def restate(self, module_id: str) -> list[Payload]:
        snapshot = self.board.snapshot()
        self._reported = snapshot.version
        return [snapshot.payload(module_id)]

    def drain(self, module_id: str) -> list[Payload]:
        own, self._unreported = self._unreported, []
        payloads: list[Payload] = [snapshot.payload(module_id) for snapshot in own]
        last = own[-1].version if own else self._reported
        if self.board.version > last:
            current = self.board.snapshot()
            payloads.append(current.payload(module_id))
            last = current.version
        self._reported = last
        return payloads

    def create_epic(self, prefix: str, title: str, description: str) -> dict[str, Any]:
        epic_id, usage = self._kept(self.board.create_epic(prefix, title, description))
        return _created(epic_id, usage)

    def create_issue(self, new: NewIssue) -> dict[str, Any]:
        self._check_assignees(new.agent, new.reviewers)
        issue_id, usage = self._kept(self.board.create_issue(new))
        return _created(issue_id, usage)

    def update_issue(self, issue_id: str, patch: IssuePatch) -> None:
        self._kept(self.board.update_issue(issue_id, patch))

    def set_issue_blocked_by(self, issue_id: str, blocked_by: Sequence[str]) -> None:
        self._kept(self.board.set_issue_blocked_by(issue_id, blocked_by))

    def remove_epic(self, epic_id: str) -> dict[str, int]:
        return self._kept(self.board.remove_epic(epic_id)).to_wire()

    def remove_issue(self, issue_id: str) -> dict[str, int]:
        return self._kept(self.board.remove_issue(issue_id)).to_wire()

    def check_wait(self, issue_id: str) -> None:
        """Raises `Refusal` unless this agent may wait on `issue_id`."""
        if issue_id == self.assigned_issue:
            raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("board-wait-own", id=issue_id))
        if self.board.issue(issue_id) is None:
            raise Refusal(ErrorCode.NOT_FOUND, worded("item-missing", noun="issue", id=_shown(issue_id)))

    def _kept(self, written: Written[T]) -> T:
        self._unreported.append(written.snapshot)
        return written.value

    def _check_assignees(self, agent: str, reviewers: Sequence[str]) -> None:
        policy = self.policy
        if agent.strip() and agent not in policy.implementers:
            unknown = worded("board-agent-unknown", choices=_listed(policy.implementers), name=_shown(agent))
            raise Refusal(ErrorCode.INVALID_ARGUMENT, unknown)
        for name in reviewers:
            if name not in policy.reviewers:
                choices = _listed(policy.reviewers)
                unknown = worded("board-reviewer-unknown", choices=choices, name=_shown(name))
                raise Refusal(ErrorCode.INVALID_ARGUMENT, unknown)
        if policy.require_reviewers and not reviewers:
            raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("board-reviewers-required"))


def _listed(names: Sequence[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _created(identifier: str, usage: BoardUsage) -> dict[str, Any]:
    return {"id": identifier, "board": usage.to_wire()}


def _shown(name: str) -> str:
    return name if len(name) <= 60 else name[:60] + "…"
