"""One agent's turns, until an ending, a ceiling or a fault stops it.

An agent instance is its profile's setup (decided once), what it holds (its window, views,
library, surface), the model it asks, its own telemetry stream and the record of its turns; the
run it belongs to (`RunContext`) is shared with every other agent. Nothing ends implicitly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gg.errors import GgDefect
from gg.loop.limits import Breach, ErrorLedger, Limits, breach_after_turn, breach_of_cost, breach_of_runtime
from gg.loop.turn import take_turn
from gg.outcome import Continue, ErrorType, Fatal, Finished, TurnOutcome, outcome_name
from gg.providers.base import ModelClient, ModelError
from gg.run.context import RunContext
from gg.run.setup import AgentSetup
from gg.run.spend import Spend
from gg.run.status import RunStatus, status_of_breach
from gg.run.stream import AgentStream
from gg.state.holdings import Holdings
from gg.telemetry.events import LimitExceeded, LogLevel, TurnOutcomeEvent

# Model failures that end the agent (the run ends `model_error`); every other model failure is an
# error turn the session survives (an unparseable or cut-off reply, a timeout).
_ENDS_THE_AGENT = frozenset({ErrorType.MODEL_AUTH, ErrorType.MODEL_REJECTED, ErrorType.MODEL_RETRY_EXHAUSTED})


@dataclass
class Agent:
    setup: AgentSetup
    holdings: Holdings
    client: ModelClient
    stream: AgentStream
    ledger: ErrorLedger = field(default_factory=ErrorLedger)
    executions: int = 0

    @property
    def id(self) -> str:
        return self.stream.agent_id

    def summary(self, spend: Spend) -> dict[str, Any]:
        """The agent's session rollup: turns, programs run, errors, and `spend` so far."""
        return {
            "turns": self.ledger.turns,
            "codeExecutions": self.executions,
            "errors": self.ledger.to_wire(),
            "usage": spend.to_wire(),
        }


@dataclass(frozen=True)
class AgentEnd:
    status: RunStatus
    final_text: str | None = None
    message: str | None = None
    breach: Breach | None = None
    summary: dict[str, Any] | None = None


def run_agent(agent: Agent, run: RunContext) -> AgentEnd:
    """Take turns until something ends the agent."""
    while True:
        breach = _breach_before_turn(agent.setup.limits, run, agent.ledger.turns)
        if breach is not None:
            return _stop_at(agent.stream, breach)
        agent.stream.turn += 1
        turn = _turn(agent, run)
        end = turn if isinstance(turn, AgentEnd) else _close_turn(agent, turn)
        if end is not None:
            return end


def _breach_before_turn(limits: Limits, run: RunContext, turns: int) -> Breach | None:
    """The run-wide ceilings, read before each model call: its time, then its spend."""
    runtime = breach_of_runtime(limits, run.elapsed(), turns)
    return runtime or breach_of_cost(limits, run.spend.cost_usd, turns)


def _turn(agent: Agent, run: RunContext) -> TurnOutcome | AgentEnd:
    """One turn's outcome, still to close; a model failure that ends the agent closes its turn
    and ends the agent here."""
    try:
        return take_turn(agent, run)
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


def _close_turn(agent: Agent, outcome: TurnOutcome) -> AgentEnd | None:
    limits = agent.setup.limits
    agent.ledger.record(outcome, limits.error_rate_window)
    _emit_outcome(agent.stream, agent.ledger, outcome)
    match outcome:
        case Finished(final_text=text):
            return AgentEnd(RunStatus.COMPLETED, final_text=text)
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
