"""Opening and running every agent of a run (`Spawner`): the root on the run's own thread, each
subagent and fork copy on a thread of its own, each successor on its predecessor's thread.

Rules kept here:
- an agent's lineage runs incarnation after incarnation: a succession its turn declared opens the
  next incarnation (`gg.agents.succession`), anything else ends the lineage;
- a lineage's end is recorded once, on its last incarnation's stream (`agent_finished`), and is
  the result its parent's wait reads (an ending outside a machine's terminal states says so:
  `gg.agents.machine_end`); its last incarnation lets go of every module it held; gg's own defect in
  any agent stops the whole run, which ends `internal_error`;
- a subagent may be started on a board issue (`IssueWork`): its dispatcher moves the issue once
  the child's node is placed, before the child opens, and is handed the child's result when its
  lineage ends (at once, when no model can be built for it);
- no agent starts once the run is ending (`RunContext.ending`);
- `stop_all` records every agent still running as `stopped` (its stream then emits nothing more),
  then stops the run (every wait ends), closes the run's guests (a program still running ends
  there, at once) and gives their threads a moment to wind down; a thread still inside a model
  call is left to end by itself, recording nothing.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from gg import prompts
from gg.agents.build import Arrival, announce, fresh_holdings
from gg.agents.context import RunContext
from gg.agents.delegation import AgentDelegation
from gg.agents.forks import copy_of
from gg.agents.lineages import ChildResult
from gg.agents.machine_end import recorded_end
from gg.agents.models import ModelClients
from gg.agents.profiles import Profiles
from gg.agents.succession import successor_of
from gg.errors import ConfigError, ErrorCode, GgDefect, OperationError
from gg.ids import AgentNode
from gg.loop.agent import AgentEnd, Incarnation, run_agent
from gg.loop.limits import ErrorLedger
from gg.loop.setup import AgentSetup
from gg.loop.status import AgentStatus, RunStatus, agent_status
from gg.providers.base import ModelClient
from gg.sdk.scope import ForkDeclaration, Succession
from gg.sdk.surface import Surface
from gg.state.holdings import Holdings
from gg.telemetry.agent_events import AgentFinished
from gg.telemetry.events import LogLevel

JOIN_SECS = 0.5  # how long a stopped run waits, in all, for its agents' threads to end


@dataclass(frozen=True)
class IssueWork:
    """A subagent started on a board issue: the issue, what its dispatcher does once the child's
    node is placed (before it opens), and what it does with the child's result."""

    issue: str
    placed: Callable[[AgentNode], None]
    then: Callable[[ChildResult], None]


class Spawner:
    def __init__(self, run: RunContext, profiles: Profiles, clients: ModelClients) -> None:
        self.run = run
        self.profiles = profiles
        self.clients = clients
        self._agents: list[Incarnation] = []
        self._current: dict[str, Incarnation] = {}  # each lineage's current incarnation
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def open_root(self) -> Incarnation:
        """The run's root agent, briefed with the run's task."""
        setup = self.profiles.entering(self.profiles.root.slug)
        node = self.run.tree.open_root(setup.slug)
        self.run.lineages.open(node.id, None)
        return self.open(setup, node, Arrival(brief=self.profiles.root.task))

    def open(
        self,
        setup: AgentSetup,
        node: AgentNode,
        arrival: Arrival,
        holdings: Holdings[Surface] | None = None,
        *,
        ledger: ErrorLedger | None = None,
        turn: int = 0,
    ) -> Incarnation:
        """An instance of `setup` at `node`, holding `holdings` (fresh ones when None), announced on
        its stream before its first turn (at turn 0); its turns count on from `turn`."""
        stream = self.run.stream(node.id, node.parent)
        client: ModelClient = self.clients.client(node, self.profiles.profile(setup.slug), stream)
        held = holdings or fresh_holdings(setup, self.run, arrival, node.id)
        port = AgentDelegation(self, self.run)
        agent = Incarnation(setup, held, client, stream, node, port, ledger=ledger or ErrorLedger())
        if self.run.hooks is not None:
            agent.hooks = self.run.hooks.for_agent(stream, setup.slug)
        port.bind(agent)
        with self._lock:
            self._agents.append(agent)
            self._current[node.lineage] = agent
        announce(agent, arrival)
        stream.turn = turn
        return agent

    def spawn(
        self, parent: Incarnation, profile: str, brief: str, work: IssueWork | None = None
    ) -> dict[str, object]:
        """Start a subagent of `profile` for `parent`, briefed with `brief` (and put to `work` on a
        board issue); its handle. A model that cannot be built for it is `unavailable`; a run that
        is ending starts no one."""
        if self.run.ending:
            raise OperationError(
                "spawn_subagent", ErrorCode.LIMIT_EXCEEDED, "the run is ending; no agent starts now"
            )
        setup = self.profiles.entering(profile)
        node = self.run.tree.spawn(parent.node, setup.slug)
        slot = self.run.lineages.reserve_slot(parent.node.lineage)
        self.run.lineages.open(node.id, parent.node.lineage, slot)
        arrival = Arrival("spawn", parent.id, node.depth, brief, issue=None if work is None else work.issue)
        if work is not None:
            work.placed(node)
        held = fresh_holdings(setup, self.run, arrival, node.id, parent.holdings.modules)
        try:
            child = self.open(setup, node, arrival, held)
        except ConfigError as refusal:
            held.modules.release()
            ended = ChildResult(node.id, AgentStatus.MODEL_ERROR, str(refusal))
            self.run.lineages.finish(node.id, ended)
            if work is not None:
                work.then(ended)
            raise OperationError(
                "spawn_subagent", ErrorCode.UNAVAILABLE, f"`{profile}`'s model cannot be used: {refusal}"
            ) from None
        self._start(child, None if work is None else work.then)
        return {"id": node.id, "slot": slot, "modelId": child.client.model_id}

    def start(self, agent: Incarnation, then: Callable[[ChildResult], None]) -> None:
        """Run `agent`'s lineage on a thread of its own; once it ended, `then` is handed its result
        on that thread (never when the run stopped it)."""
        self._start(agent, then)

    def dispatch(self, agent: Incarnation, forks: list[ForkDeclaration]) -> None:
        """Start a copy of `agent` for every fork its turn declared (none once the run is ending)."""
        for fork in forks:
            if self.run.ending:
                return
            self._start(copy_of(agent, fork, self))

    def run_lineage(self, agent: Incarnation) -> AgentEnd:
        """Run `agent` and its successors to the lineage's end, and record it. Once the run is
        ending no successor opens: the agent handing over is stopped where it stands."""
        while True:
            outcome = run_agent(agent, self.run, self)
            if not isinstance(outcome, Succession):
                break
            if self.run.ending:
                outcome = AgentEnd(RunStatus.COMPLETED, stopped=True)
                break
            try:
                agent = successor_of(agent, outcome, self)
            except GgDefect as defect:
                agent.stream.log(LogLevel.ERROR, f"gg's own defect ended the succession: {defect.message}")
                outcome = AgentEnd(
                    RunStatus.INTERNAL_ERROR, message=f"{defect.fault.value}: {defect.message}"
                )
                break
        outcome = recorded_end(agent, outcome)
        self._finish(agent, outcome)
        return outcome

    def incarnations(self) -> list[Incarnation]:
        """Every agent instance opened so far, in the order they opened."""
        with self._lock:
            return list(self._agents)

    def stop_all(self) -> None:
        """Stop every agent still running, recording each as stopped. Each is recorded (sealed)
        before the run stops, so what the stop itself ends (a wait, the program waiting in it) is
        never recorded as the agent's own failure."""
        for lineage in self.run.lineages.running():
            with self._lock:
                agent = self._current.get(lineage.id)
            if agent is not None:
                self._record_stopped(agent)
        self.run.stop()
        self.run.leases.close()
        until = time.monotonic() + JOIN_SECS
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(until - time.monotonic(), 0))

    def _start(self, agent: Incarnation, then: Callable[[ChildResult], None] | None = None) -> None:
        """Run `agent`'s lineage on a thread of its own, its place in line taken now."""
        place = agent.place = self.run.scheduler.reserve()
        thread = threading.Thread(
            target=self._run_child, args=(agent, then), name=f"gg-agent-{agent.id}", daemon=True
        )
        with self._lock:
            self._threads.append(thread)
        try:
            thread.start()
        except BaseException:
            self.run.scheduler.leave(place)  # a thread that never ran must hold no place
            raise

    def _run_child(self, agent: Incarnation, then: Callable[[ChildResult], None] | None) -> None:
        try:
            end = self.run_lineage(agent)
            result = self.run.lineages.result_of(agent.node.lineage)
            if then is not None and result is not None and not self.run.stopping:
                then(result)
        except Exception as defect:  # gg's own failure in a child ends the run, as in the root
            if self.run.stopping:
                return  # the run has ended and recorded this agent as stopped
            agent.stream.log(LogLevel.ERROR, f"gg failed: {defect!r}", traceback=traceback.format_exc())
            self.run.stop(fault=f"gg failed: {defect}")
            return
        if end.status is RunStatus.INTERNAL_ERROR:
            self.run.stop(fault=end.message)

    def _record_stopped(self, agent: Incarnation) -> None:
        """Record `agent` stopped by the run, unless its end is recorded already."""
        if agent.stream.seal_with(AgentFinished(status=AgentStatus.STOPPED.value)):
            lineage = agent.node.lineage
            self.run.lineages.finish(lineage, ChildResult(lineage, AgentStatus.STOPPED, ""))

    def _finish(self, agent: Incarnation, end: AgentEnd) -> None:
        agent.holdings.modules.release()
        if end.stopped:  # recorded by `stop_all` already, unless it opened after the run began to stop
            self._record_stopped(agent)
            return
        result = child_result(agent, end)
        if agent.stream.seal_with(AgentFinished(status=result.status.value, summary=result.summary)):
            self.run.lineages.finish(agent.node.lineage, result)


def child_result(agent: Incarnation, end: AgentEnd) -> ChildResult:
    """What the agent's parent reads once it ended: its ending's final word, a reviewer's verdict,
    or what stopped it and what its last turn produced."""
    lineage = agent.node.lineage
    ending = end.ending
    if ending is not None:
        approved = {"approve": True, "request_changes": False}.get(ending.kind)
        changes = ending.items if ending.kind == "request_changes" else None
        return ChildResult(lineage, AgentStatus.COMPLETED, ending.final_text, approved, changes)
    breach = end.breach
    summary = prompts.render(
        "child-ended",
        limit=None if breach is None else breach.limit.value,
        threshold=None if breach is None else f"{breach.threshold:g}",
        message=end.message,
        report=None if agent.last_report == end.message else agent.last_report,
    )
    return ChildResult(lineage, agent_status(end.status), summary)
