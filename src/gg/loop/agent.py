"""One agent incarnation's turns, until an ending, a ceiling, a fault, a succession or the run
stopping ends them.

An agent instance is its profile's setup (decided once), what it holds (its modules, library,
surface), the model it asks, its own telemetry stream, its place in the agent tree, its port onto
the run's other agents and the record of its turns; the run it belongs to (`Run`) is
shared with every other agent. Nothing ends implicitly.

Each turn holds one of the run's `maxParallel` slots from its start to its end (an agent started on
a thread of its own takes its first turn at the place in line it was given when started), and,
once it has its slot, one of its arm's guests (`gg.agents.leases`). A turn
opens by putting the messages sent to the agent since its last turn in its window, then what its
modules put there before a request (`gg.loop.modules`), and closes by dispatching every fork it
declared; then, outside any slot, it waits for the board issues it declared waits on, and a
succession it declared ends the incarnation there (`Succession`), unless the turn ended the agent.
The incarnation's `agent-start` hooks fire before its first turn, and what the run's hooks said to
it since its last request opens its next one; a hook that could not judge ends the incarnation
and stops the run (`hook_error`).
The ceilings read the lineage's record (`ledger`, carried across incarnations, so one turn ceiling
is spent across them); the summary is the incarnation's own (`tally`, `spend`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Protocol

from gg import prompts
from gg.config.hooks import HookEvent
from gg.errors import FatalFault, GgDefect, HookFailed
from gg.ids import AgentNode
from gg.loop.hooks import AgentHooks
from gg.loop.limits import (
    Breach,
    ErrorLedger,
    LoopLimits,
    breach_after_turn,
    breach_of_cost,
    breach_of_runtime,
)
from gg.loop.modules import open_turn
from gg.loop.run import GuestLine, Run, Ticket
from gg.loop.setup import AgentSetup
from gg.loop.spend import Spend
from gg.loop.status import RunStatus, status_of_breach
from gg.loop.stream import AgentStream
from gg.loop.turn import RunTimeSpent, take_turn
from gg.outcome import Continue, ErrorType, Fatal, Finished, TurnOutcome, outcome_name
from gg.providers.base import Message, ModelClient, ModelError
from gg.sdk.delegation import Delegation
from gg.sdk.scope import DeferredDeclarations, ForkDeclaration, Succession
from gg.sdk.surface import Surface
from gg.state.holdings import Holdings
from gg.telemetry.events import LimitExceeded, LogLevel, TurnOutcomeEvent

# Model failures that end the agent (the run ends `model_error`); every other model failure is an
# error turn the session survives (an unparseable or cut-off reply, a timeout).
_ENDS_THE_AGENT = frozenset({ErrorType.MODEL_AUTH, ErrorType.MODEL_REJECTED, ErrorType.MODEL_RETRY_EXHAUSTED})

# Numbers each incarnation of this process apart from every other, a dead one's included (an
# object's `id` is reused once it is freed, so it cannot tell a successor from its predecessor).
_INCARNATIONS = itertools.count(1)


@dataclass
class Incarnation:
    setup: AgentSetup
    holdings: Holdings[Surface]
    client: ModelClient
    stream: AgentStream
    node: AgentNode
    delegation: Delegation | None = None
    ledger: ErrorLedger = field(default_factory=ErrorLedger)  # the lineage's, for the ceilings
    tally: ErrorLedger = field(default_factory=ErrorLedger)  # this incarnation's own
    spend: Spend = field(default_factory=Spend)  # what this incarnation's replies cost
    executions: int = 0
    requests: int = 0
    begun: int = 0  # the turns this incarnation opened, one still open included
    last_report: str | None = None  # what its last turn produced, for whoever waits on it
    place: Ticket | None = None  # its place in the scheduler's line, taken when it was started
    hooks: AgentHooks | None = None  # the run's hooks as they fire for it, in a run that has any
    serial: int = field(default_factory=lambda: next(_INCARNATIONS), init=False)

    @property
    def id(self) -> str:
        return self.stream.agent_id

    @property
    def owner(self) -> str:
        """Who its programs run for, to its arm: one incarnation of one agent (its id, its profile
        and the incarnation's serial number), so a successor, a child or another agent, in this
        run or a later one on the same arm, never shares its guest scope."""
        return f"{self.id}/{self.setup.slug}/{self.serial}"

    def summary(self) -> dict[str, Any]:
        """The incarnation's rollup: turns, programs run, errors, and what its replies cost."""
        return {
            "agentId": self.id,
            "profileId": self.setup.slug,
            "turns": self.tally.turns,
            "codeExecutions": self.executions,
            "errors": self.tally.to_wire(),
            "usage": self.spend.to_wire(),
        }


@dataclass(frozen=True)
class AgentEnd:
    status: RunStatus
    final_text: str | None = None
    message: str | None = None
    breach: Breach | None = None
    summary: dict[str, Any] | None = None
    ending: Finished | None = None  # the ending that finished it, when one did
    stopped: bool = False  # the run stopped it; the run records its end


class ForkDispatch(Protocol):
    """Who starts a turn's fork copies once the turn closes."""

    def dispatch(self, agent: Incarnation, forks: list[ForkDeclaration]) -> None: ...


def run_agent(agent: Incarnation, run: Run, forks: ForkDispatch) -> AgentEnd | Succession:
    """Take turns until something ends the incarnation; `agent-start` fires first."""
    started = _fire_start(agent, run)
    if started is not None:
        return started
    while True:
        place, agent.place = agent.place, None
        breach = _breach_before_turn(agent.setup.limits, run, agent.ledger.turns)
        if breach is not None:
            if place is not None:
                run.leave_line(place)
            return _stop_at(agent.stream, breach)
        guests = run.guests(agent.setup.language, agent.owner)
        if not _seated(run, guests, place):
            return _stopped(run)
        deferred = DeferredDeclarations()
        try:
            _deliver_messages(agent)
            _deliver_hook_messages(agent)
            open_turn(agent.holdings, agent.setup, agent.stream, first=agent.requests == 0)
            agent.stream.turn += 1
            agent.begun += 1
            turn = _turn(agent, run, deferred)
            end = turn if isinstance(turn, AgentEnd) else _close_turn(agent, turn)
        finally:
            guests.release()
            run.give_slot()
        if end is None or end.status not in (RunStatus.INTERNAL_ERROR, RunStatus.HOOK_ERROR):
            forks.dispatch(agent, deferred.forks)
        if end is not None:
            run.clear_waits(agent.node.lineage)  # the issue waits it declared and never began
            return end
        _wait_for_issues(agent, run, deferred.waits)
        if deferred.succession is not None:
            return deferred.succession


def _fire_start(agent: Incarnation, run: Run) -> AgentEnd | None:
    """The agent's `agent-start` hooks; a hook that could not judge ends the run `hook_error`."""
    if agent.hooks is None:
        return None
    try:
        agent.hooks.fire(HookEvent.AGENT_START, {})
    except HookFailed as failed:
        return hook_failed(agent.stream, run, failed)
    return None


def hook_failed(stream: AgentStream, run: Run, failed: HookFailed) -> AgentEnd:
    """A hook judged nothing: the operator reads why, the model nothing, and the run stops."""
    stream.log(LogLevel.ERROR, str(failed), event=failed.event, hook=failed.hook)
    run.hook_failed(str(failed))
    return AgentEnd(RunStatus.HOOK_ERROR, message=str(failed))


def _deliver_hook_messages(agent: Incarnation) -> None:
    """What the hooks said since the agent's last request reaches its next one, once."""
    if agent.hooks is None:
        return
    for text in agent.hooks.take_messages():
        agent.holdings.window.push(Message(role="user", content=text))


def _seated(run: Run, guests: GuestLine, place: Ticket | None) -> bool:
    """A slot for the turn (at `place` in line), then one of its arm's guests; False, holding
    neither, once the run stopped. Interrupted in line for a guest, it gives its slot back."""
    if not run.take_slot(place):
        return False
    try:
        if guests.acquire():
            return True
    except BaseException:
        run.give_slot()
        raise
    run.give_slot()
    return False


def _stopped(run: Run) -> AgentEnd:
    if run.fault is not None:
        return AgentEnd(RunStatus.INTERNAL_ERROR, message=run.fault)
    return AgentEnd(RunStatus.COMPLETED, stopped=True)


def _deliver_messages(agent: Incarnation) -> None:
    """What was sent to the agent since its last turn reaches its window before its next request."""
    if agent.delegation is None:
        return
    for sender, text in agent.delegation.take_messages():
        agent.holdings.window.push(
            Message(role="user", content=prompts.render("message", sender=sender, message=text))
        )


def _wait_for_issues(agent: Incarnation, run: Run, issues: list[str]) -> None:
    """The board issues the turn waits for (`waitForIssue`), between its turns: once each is done
    or failed (or the run's time or the run ran out), what became of each reaches its window."""
    try:
        if not issues:
            return
        answers = run.wait_for_issues(issues)
    finally:
        run.clear_waits(agent.node.lineage)  # what it declared, waited on or not
    for answer in answers:
        text = prompts.render(
            "issue-settled", id=answer.id, status=answer.status.value, summary=answer.summary
        )
        agent.holdings.window.push(Message(role="user", content=text))


def _breach_before_turn(limits: LoopLimits, run: Run, turns: int) -> Breach | None:
    """The run-wide ceilings, read before each model call: its time, then its spend."""
    runtime = breach_of_runtime(limits, run.elapsed(), turns)
    return runtime or breach_of_cost(limits, run.spend.cost_usd, turns)


def _runtime_breach(limits: LoopLimits, run: Run, turns: int) -> Breach:
    """The runtime ceiling's breach, once the run's time is spent."""
    breach = breach_of_runtime(limits, run.elapsed(), turns)
    if breach is None:  # the run's time is spent only under a runtime ceiling
        raise GgDefect(FatalFault.HOST_FAULT, "the run's time was spent with no runtime ceiling armed")
    return breach


def _turn(agent: Incarnation, run: Run, deferred: DeferredDeclarations) -> TurnOutcome | AgentEnd:
    """One turn's outcome, still to close; a model failure that ends the agent closes its turn
    and ends the agent here, and a turn the run's time ran out in stops the agent at the runtime
    ceiling, unjudged."""
    try:
        return take_turn(agent, run, deferred)
    except HookFailed as failed:  # the turn is not judged: the hook, not the model, failed
        return hook_failed(agent.stream, run, failed)
    except RunTimeSpent:  # the turn cut short counts among the turns taken
        return _stop_at(agent.stream, _runtime_breach(agent.setup.limits, run, agent.ledger.turns + 1))
    except ModelError as failure:
        outcome = Continue(error=failure.type, report=failure.message)
        if failure.type not in _ENDS_THE_AGENT:
            return outcome
        _close_turn(agent, outcome)
        return AgentEnd(RunStatus.MODEL_ERROR, message=failure.message)
    except GgDefect as defect:
        agent.stream.log(
            LogLevel.ERROR, f"gg's own defect ended the turn: {defect.message}", fault=defect.fault.value
        )
        return Fatal(defect.fault, defect.message)


def _close_turn(agent: Incarnation, outcome: TurnOutcome) -> AgentEnd | None:
    limits = agent.setup.limits
    agent.ledger.record(outcome, limits.error_rate_window)
    agent.tally.record(outcome, limits.error_rate_window)
    if isinstance(outcome, Continue):
        agent.last_report = outcome.report
    _emit_outcome(agent.stream, agent.ledger, outcome)
    match outcome:
        case Finished(final_text=text):
            return AgentEnd(RunStatus.COMPLETED, final_text=text, ending=outcome)
        case Fatal(fault=fault, message=message):
            return AgentEnd(RunStatus.INTERNAL_ERROR, message=f"{fault.value}: {message}")
        case Continue():
            breach = breach_after_turn(limits, agent.ledger)
            return None if breach is None else _stop_at(agent.stream, breach)


def _emit_outcome(stream: AgentStream, ledger: ErrorLedger, outcome: TurnOutcome) -> None:
    error = outcome.error if isinstance(outcome, Continue) else None
    stream.emit(
        TurnOutcomeEvent(
            outcome=outcome_name(outcome).value,
            consecutive_errors=ledger.consecutive,
            turns=ledger.turns,
            error=None if error is None else error.kind.value,
            error_type=None if error is None else error.value,
            report=outcome.report if isinstance(outcome, Continue) else None,
            feedback=list(outcome.feedback) if isinstance(outcome, Continue) else None,
        )
    )


def _stop_at(stream: AgentStream, breach: Breach) -> AgentEnd:
    stream.emit(
        LimitExceeded(
            limit=breach.limit.value,
            threshold=breach.threshold,
            observed=breach.observed,
            turns=breach.turns,
            window=breach.window,
        )
    )
    status = status_of_breach(breach.limit)
    return AgentEnd(
        status, message=f"stopped by the {breach.limit.value} ceiling ({breach.threshold:g})", breach=breach
    )
