"""The board's records: an epic, an issue and the patch `update_issue` applies to one (the store
that holds them: `gg.state.board.store`).

- An epic is `{id, title, description}`.
- An issue is `{id, title, description?, inScope, outOfScope, completionCriteria, status,
  blockedBy, epicId?, agent, reviewers?, assignedAgentId?, retries}` on the wire; a field it does
  not have is left out. It opens `open` with no retries.
- A patch changes the fields it names, each checked as `gg.state.items` checks it; `description`
  and `epicId` `None` clear; a patch that names none is empty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gg.state.board.lifecycle import IssueStatus, Progress
from gg.state.items import KEEP, Keep, checked_text, checked_title, optional_text

OPENED = Progress(IssueStatus.OPEN)


@dataclass(frozen=True)
class Epic:
    id: str
    title: str
    description: str

    def to_wire(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "description": self.description}


@dataclass(frozen=True)
class NewIssue:
    title: str
    in_scope: str
    out_of_scope: str
    completion_criteria: str
    agent: str
    description: str | None = None
    blocked_by: tuple[str, ...] = ()
    epic_id: str | None = None
    reviewers: tuple[str, ...] = ()
    filed_by: str | None = None  # the agent whose call filed it (never on the wire)


@dataclass(frozen=True)
class Issue:
    id: str
    spec: NewIssue
    progress: Progress = OPENED
    assigned_agent_id: str | None = None

    @property
    def status(self) -> IssueStatus:
        return self.progress.status

    def to_wire(self) -> dict[str, Any]:
        spec = self.spec
        wire: dict[str, Any] = {"id": self.id, "title": spec.title, "description": spec.description}
        wire |= {"inScope": spec.in_scope, "outOfScope": spec.out_of_scope}
        wire |= {"completionCriteria": spec.completion_criteria, "status": self.status.value}
        wire |= {"blockedBy": list(spec.blocked_by), "epicId": spec.epic_id, "agent": spec.agent}
        wire |= {"reviewers": list(spec.reviewers) or None, "assignedAgentId": self.assigned_agent_id}
        wire["retries"] = self.progress.retries
        return {key: value for key, value in wire.items() if value is not None}


@dataclass(frozen=True)
class IssuePatch:
    """What `update_issue` changes; a field left at its default is left as it is."""

    title: str | None = None
    description: str | Keep | None = KEEP
    in_scope: str | None = None
    out_of_scope: str | None = None
    completion_criteria: str | None = None
    status: IssueStatus | None = None
    epic_id: str | Keep | None = KEEP

    def is_empty(self) -> bool:
        texts = (self.title, self.in_scope, self.out_of_scope, self.completion_criteria, self.status)
        return all(value is None for value in texts) and self.description is KEEP and self.epic_id is KEEP


def patched(spec: NewIssue, patch: IssuePatch) -> NewIssue:
    """`spec` with the fields `patch` names, each checked."""

    def text(value: str | None, current: str, name: str) -> str:
        return current if value is None else checked_text(value, name)

    description = spec.description
    if not isinstance(patch.description, Keep):
        description = optional_text(patch.description, "description")
    return replace(
        spec,
        title=spec.title if patch.title is None else checked_title(patch.title),
        description=description,
        in_scope=text(patch.in_scope, spec.in_scope, "in_scope"),
        out_of_scope=text(patch.out_of_scope, spec.out_of_scope, "out_of_scope"),
        completion_criteria=text(patch.completion_criteria, spec.completion_criteria, "completion_criteria"),
        epic_id=spec.epic_id if isinstance(patch.epic_id, Keep) else patch.epic_id,
    )
