"""One agent's port onto the run's other agents (`AgentDelegation`, the `Delegation` the SDK's
delegation family calls): it starts children through the run's spawner, waits and messages
through the run's lineages, and mints fork ids at the call.

A wait steps aside from the scheduler: the waiting agent's slot is free for the children it waits
on until the wait ends. Every wait, on children or on board issues, is declared to the run's wait
graph first (`gg.agents.waits`), which refuses one that could never end (`conflict`). A handle
names the child by its id, its slot among this agent's children and the model that answers it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gg import prompts
from gg.agents.build import Opener
from gg.agents.context import RunContext
from gg.agents.waits import agent_node, issue_node
from gg.errors import ErrorCode, OperationError

if TYPE_CHECKING:
    from gg.loop.agent import Incarnation


class AgentDelegation:
    def __init__(self, spawner: Opener, run: RunContext) -> None:
        self._spawner = spawner
        self._run = run
        self._agent: Incarnation | None = None

    def bind(self, agent: Incarnation) -> None:
        """The agent this port serves (it is built after its port)."""
        self._agent = agent

    @property
    def agent(self) -> Incarnation:
        if self._agent is None:
            raise RuntimeError("a delegation port was used before its agent was bound")
        return self._agent

    @property
    def depth(self) -> int:
        return self.agent.node.depth

    @property
    def max_depth(self) -> int | None:
        return self.agent.setup.max_depth

    def spawnable(self) -> Sequence[str]:
        return [entry.agent for entry in self.agent.setup.roster]

    def transitions(self) -> Sequence[str]:
        seat = self.agent.setup.seat
        return () if seat is None else seat.targets

    def spawn(self, profile: str, prompt: str | None) -> dict[str, Any]:
        brief = (
            prompt if prompt is not None and prompt.strip() else self._spawner.profiles.profile(profile).task
        )
        if not brief:
            raise OperationError(
                "spawn_subagent",
                ErrorCode.INVALID_ARGUMENT,
                f"`prompt` is required: the `{profile}` profile has no task to brief its agent with",
            )
        return self._spawner.spawn(self.agent, profile, brief)

    def spawn_on_issue(self, profile: str, issue: str) -> dict[str, Any]:
        desk = self._run.issues
        if desk is None:  # a run without a board holds no issue
            missing = prompts.render("item-missing", noun="issue", id=issue[:80])
            raise OperationError("spawn_subagent", ErrorCode.NOT_FOUND, missing)
        return desk.spawn_child(self.agent, profile, issue)

    def wait(self, ids: Sequence[str] | None, pending: Sequence[str]) -> list[dict[str, Any]]:
        lineage = self.agent.node.lineage
        children = [agent_node(child) for child in self._run.lineages.targets_of(lineage, ids, pending)]
        self._run.waits.declare("wait_for_subagents", lineage, children)
        try:
            with self._run.scheduler.stepped_aside():
                results = self._run.lineages.wait(lineage, ids, pending, self._run.deadline, self._run.clock)
        finally:
            self._run.waits.clear(lineage, children)
        return [result.to_wire() for result in results]

    def declare_issue_wait(self, issue: str) -> None:
        self._run.waits.declare("wait_for_issue", self.agent.node.lineage, [issue_node(issue)])

    def check_blockers(self, issue: str, blockers: Sequence[str]) -> None:
        self._run.waits.check_blockers("set_issue_blocked_by", issue, blockers)

    def send(self, agent_id: str, message: str) -> None:
        agent = self.agent
        self._run.lineages.post(agent.id, agent.node.lineage, agent_id, message)

    def reserve_fork(self) -> dict[str, Any]:
        agent = self.agent
        copy_id = self._run.tree.reserve_fork(agent.node)
        slot = self._run.lineages.reserve_slot(agent.node.lineage)
        return {"id": copy_id, "slot": slot, "modelId": agent.client.model_id}

    def take_messages(self) -> list[tuple[str, str]]:
        return self._run.lineages.take_inbox(self.agent.node.lineage)
