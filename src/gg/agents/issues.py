"""The run's issue desk (seed 003, "board"): gg's side of the board. It is the board's dispatcher
(`gg.state.board.BoardHooks`) and serves `waitForIssue`, on the agent tree's own machinery: every
agent it puts to work is a subagent the run's spawner opens and runs on a thread of its own, its
turns under the run's scheduler like any other agent's.

Rules kept here:
- an issue is dispatched once it is open, held by no agent and every issue it is blocked by is
  done (filed so, or unblocked later): an implementer of the profile its `agent` names is started
  as a subagent of the agent that filed it, briefed with the issue; the issue moves to
  `in_progress` and names it (`assignedAgentId`);
- an agent gg put to work is not its parent's child for the delegation family (no wait, no
  message reaches it): its end moves the issue, as `gg.state.board.lifecycle` decides. An implementer
  that ended on an ending finished its work; any other end is unfinished, retried by a new
  implementer up to `maxRetries`, then failed. Each of the issue's reviewers in turn reviews the
  work, briefed with the issue and the implementer's last word: an approval passes it to the next
  (the last makes the issue done), a change list sends it back to a new implementer briefed with
  the changes, and no verdict is a review retried up to `maxRetries`, then failed;
- a program may put a child of its own to work on an issue (`spawnSubagent({agent, issueId})`,
  `spawn_child`): the issue must be open and held by no agent (its blockers need not be done: the
  program starts the work now), else `not-found`, or `conflict` naming its status and holder. The
  child is briefed with the issue, the issue moves to `in_progress` naming it, and the child is
  its parent's like any other (waited on, messaged); its end moves the issue as an implementer's
  does, and what follows (reviews, a retry) is gg's, as for an issue gg dispatched;
- `wait` blocks, between the waiter's turns, until each named issue is done or failed, the run's
  deadline passes or the run stops (`halt` wakes it at once), and answers each issue as it then
  stands, with the last word of the agent that last worked on it.
Safe from every agent thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gg import prompts
from gg.agents.build import Arrival
from gg.agents.lineages import ChildResult
from gg.agents.spawner import IssueWork, Spawner
from gg.agents.waits import Edges, Node, agent_node, issue_node
from gg.deadline import is_spent, time_left, within
from gg.errors import ConfigError, ErrorCode, FatalFault, GgDefect, OperationError
from gg.ids import ROOT_ID, AgentNode
from gg.loop.run import IssueAnswer
from gg.loop.status import AgentStatus
from gg.state.board import Action, Board, Issue, IssueEvent, IssueStatus, LifecycleStep
from gg.state.refusal import Refusal

if TYPE_CHECKING:
    from gg.loop.agent import Incarnation

POLL_SECS = 0.25  # how often a wait re-reads the run's clock for its deadline


class IssueDesk:
    def __init__(self, spawner: Spawner, board: Board) -> None:
        self._spawner = spawner
        self._board = board
        self._words: dict[str, str] = {}  # issue id -> its last implementer's (or reviewer's) word
        self._at_work: dict[str, str] = {}  # issue id -> the agent gg last put to work on it
        self._lock = threading.RLock()
        self._settled = threading.Condition()
        board.hooks = self
        spawner.run.waits.issue_edges = self.wait_edges

    def issue_filed(self, issue_id: str) -> None:
        self._dispatch_ready()

    def issue_settled(self, issue_id: str, status: IssueStatus) -> None:
        with self._settled:
            self._settled.notify_all()
        self._dispatch_ready()

    def wait_edges(self) -> Edges:
        """The board's part of the run's wait graph (`gg.agents.waits`): each open issue waits on the
        issues it is blocked by that are not done, each issue not final on the agent at work on it
        while that agent runs."""
        edges: dict[Node, list[Node]] = {
            issue_node(waiting): [issue_node(b) for b in blockers]
            for waiting, blockers in self._board.waits_among_issues().items()
        }
        lineages = self._spawner.run.lineages
        for issue_id, worker in list(self._at_work.items()):
            held = self._board.issue(issue_id)
            if held is not None and not held.status.is_final and not lineages.ended(worker):
                edges.setdefault(issue_node(issue_id), []).append(agent_node(worker))
        return edges

    def halt(self) -> None:
        """The run is stopping: every wait ends now."""
        with self._settled:
            self._settled.notify_all()

    def wait(
        self, issues: Sequence[str], deadline: float | None, clock: Callable[[], float]
    ) -> list[IssueAnswer]:
        """Each issue of `issues` once all are final, or as they stand when the wait ends early."""
        run = self._spawner.run
        with self._settled:
            while not all(self._final(issue) for issue in issues) and not run.stopping:
                if is_spent(deadline, clock()):
                    break
                left = within(POLL_SECS, time_left(deadline, clock()))
                self._settled.wait(left)
        return [self._answer(issue) for issue in issues]

    def spawn_child(self, parent: Incarnation, profile: str, issue_id: str) -> dict[str, object]:
        """A subagent of `parent` of `profile`, briefed with issue `issue_id`, at work on it (see
        the module rules); its handle."""
        with self._lock:
            issue = self._takeable(issue_id)
            brief = prompts.render(
                "issue-brief", issue=issue, headline=issue.spec.title, changes=[], by=parent.id
            )
            work = IssueWork(
                issue_id,
                lambda node: self._dispatched(issue_id, node.id),
                lambda result: self._implemented(issue_id, result),
            )
            return self._spawner.spawn(parent, profile, brief, work)

    def _takeable(self, issue_id: str) -> Issue:
        issue = self._board.issue(issue_id)
        if issue is None:
            missing = prompts.render("item-missing", noun="issue", id=issue_id[:80])
            raise OperationError("spawn_subagent", ErrorCode.NOT_FOUND, missing)
        if issue.status is not IssueStatus.OPEN or issue.assigned_agent_id is not None:
            taken = prompts.render(
                "spawn-issue-taken", id=issue_id, status=issue.status.value, holder=issue.assigned_agent_id
            )
            raise OperationError("spawn_subagent", ErrorCode.CONFLICT, taken)
        return issue

    def _dispatched(self, issue_id: str, agent_id: str) -> None:
        self._board.move(issue_id, IssueEvent.DISPATCHED, agent_id)
        self._at_work[issue_id] = agent_id

    def _final(self, issue_id: str) -> bool:
        issue = self._board.issue(issue_id)
        return issue is None or issue.status.is_final

    def _answer(self, issue_id: str) -> IssueAnswer:
        issue = self._board.issue(issue_id)
        status = IssueStatus.FAILED if issue is None else issue.status
        return IssueAnswer(issue_id, status, self._words.get(issue_id))

    def _dispatch_ready(self) -> None:
        with self._lock:
            for issue_id in self._board.dispatchable():
                if self._spawner.run.ending:
                    return
                self._implement(issue_id, first=True)

    def _implement(self, issue_id: str, *, first: bool = False, changes: Sequence[str] = ()) -> None:
        issue = self._board.issue(issue_id)
        if issue is None:
            return
        parent, setup = self._parent(issue), self._spawner.profiles.entering(issue.spec.agent)
        node = self._spawner.run.tree.spawn(parent, setup.slug)
        if first:
            self._board.move(issue_id, IssueEvent.DISPATCHED, node.id)
        else:
            self._board.assign(issue_id, node.id)
        brief = prompts.render(
            "issue-brief", issue=issue, headline=issue.spec.title, changes=list(changes), by=None
        )
        self._put_to_work(issue_id, node, brief, lambda result: self._implemented(issue_id, result))

    def _review(self, issue_id: str, reviewer: int) -> None:
        issue = self._board.issue(issue_id)
        if issue is None:
            return
        setup = self._spawner.profiles.entering(issue.spec.reviewers[reviewer])
        node = self._spawner.run.tree.spawn(self._parent(issue), setup.slug)
        brief = prompts.render(
            "issue-review", issue=issue, headline=issue.spec.title, report=self._words.get(issue_id)
        )
        self._put_to_work(issue_id, node, brief, lambda result: self._reviewed(issue_id, result))

    def _put_to_work(
        self, issue_id: str, node: AgentNode, brief: str, then: Callable[[ChildResult], None]
    ) -> None:
        """Start the agent at `node` on `issue_id`; a model that cannot be built for it ends its
        work at once, unfinished."""
        spawner = self._spawner
        spawner.run.lineages.open(node.id, None)
        self._at_work[issue_id] = node.id
        setup = spawner.profiles.entering(node.profile)
        arrival = Arrival("issue", node.parent, node.depth, brief, issue=issue_id)
        try:
            agent = spawner.open(setup, node, arrival)
        except ConfigError as refusal:
            ended = ChildResult(node.id, AgentStatus.MODEL_ERROR, str(refusal))
            spawner.run.lineages.finish(node.id, ended)
            then(ended)
            return
        spawner.start(agent, then)

    def _implemented(self, issue_id: str, result: ChildResult) -> None:
        self._words[issue_id] = result.summary
        finished = result.status is AgentStatus.COMPLETED
        self._next(
            issue_id, self._moved(issue_id, IssueEvent.FINISHED if finished else IssueEvent.UNFINISHED), ()
        )

    def _reviewed(self, issue_id: str, result: ChildResult) -> None:
        event = IssueEvent.REVIEW_UNFINISHED
        if result.approved is not None:
            event = IssueEvent.APPROVED if result.approved else IssueEvent.CHANGES_REQUESTED
        self._next(issue_id, self._moved(issue_id, event), result.changes or ())

    def _moved(self, issue_id: str, event: IssueEvent) -> LifecycleStep | None:
        """The issue's next step after `event`; None when it left the board meanwhile."""
        try:
            return self._board.move(issue_id, event).value
        except Refusal:
            return None

    def _next(self, issue_id: str, step: LifecycleStep | None, changes: Sequence[str]) -> None:
        if step is None or self._spawner.run.ending:
            return  # a program moved the issue meanwhile, or the run is ending
        if step.action is Action.IMPLEMENT:
            with self._lock:
                self._implement(issue_id, changes=changes)
        elif step.action is Action.REVIEW:
            with self._lock:
                self._review(issue_id, step.progress.approvals)

    def _parent(self, issue: Issue) -> AgentNode:
        """The agent that filed `issue` (the root, for an issue no agent's call filed)."""
        tree = self._spawner.run.tree
        node = tree.get(issue.spec.filed_by or ROOT_ID) or tree.get(ROOT_ID)
        if node is None:
            raise GgDefect(FatalFault.HOST_FAULT, "an issue was dispatched in a run with no root agent")
        return node
