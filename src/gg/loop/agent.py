"""One agent: what it is given, and its turns until an ending, a ceiling or a fault stops it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gg.errors import GgDefect
from gg.loop.limits import Breach, ErrorLedger, Limits, breach_after_turn, breach_of_cost, breach_of_runtime
from gg.loop.turn import take_turn
from gg.outcome import Continue, ErrorType, Fatal, Finished, TurnOutcome, outcome_name
from gg.providers.base import ModelClient, ModelError, ToolSpec
from gg.run.spend import Spend
from gg.run.status import RunStatus, status_of_breach
from gg.run.stream import AgentStream
from gg.sandbox.execution import Arm, Ceilings
from gg.sdk.registry import Registry, Role
from gg.sdk.shell import ShellAccess
from gg.sdk.surface import Surface
from gg.state.library import ProgramLibrary
from gg.state.views import ViewSet
from gg.state.window import Window
from gg.state.workspace import Workspace
from gg.telemetry.events import LimitExceeded, LogLevel, TurnOutcomeEvent

# Model failures that end the agent (the run ends `model_error`); every other model failure is an
# error turn the session survives (an unparseable or cut-off reply, a timeout).
_ENDS_THE_AGENT = frozenset({ErrorType.MODEL_AUTH, ErrorType.MODEL_REJECTED, ErrorType.MODEL_RETRY_EXHAUSTED})


@dataclass(frozen=True)
class AgentSetup:
    agent_id: str
    role: Role
    language: str
    capabilities: frozenset[str]
    ceilings: Ceilings
    limits: Limits
    max_output_tokens: int | None = None
    temperature: float | None = None


@dataclass
class Agent:
    """Everything one agent's turns act on."""

    setup: AgentSetup
    client: ModelClient
    arm: Arm
    registry: Registry
    stream: AgentStream
    window: Window
    views: ViewSet
    workspace: Workspace
    tool: ToolSpec
    surface: Surface
    library: ProgramLibrary | None = None
    shell: ShellAccess | None = None
    spend: Spend = field(default_factory=Spend)
    ledger: ErrorLedger = field(default_factory=ErrorLedger)
    executions: int = 0
    deadline: float | None = None  # when the run's wall-clock budget is spent (monotonic clock)

    def summary(self) -> dict[str, Any]:
        """The agent's session rollup: turns, programs run, errors, and the run's spend so far."""
        return {
            "turns": self.ledger.turns,
            "codeExecutions": self.executions,
            "errors": self.ledger.to_wire(),
            "usage": self.spend.to_wire(),
        }


@dataclass(frozen=True)
class AgentEnd:
    status: RunStatus
    final_text: str | None = None
    message: str | None = None
    breach: Breach | None = None
    summary: dict[str, Any] | None = None


def run_agent(agent: Agent, started: float, clock: Callable[[], float] = time.monotonic) -> AgentEnd:
    """Take turns until something ends the agent. Nothing ends implicitly."""
    limits = agent.setup.limits
    if limits.max_runtime_secs is not None:
        agent.deadline = started + limits.max_runtime_secs
    while True:
        breach = breach_of_runtime(limits, clock() - started, agent.ledger.turns) or breach_of_cost(
            limits, agent.spend.cost_usd, agent.ledger.turns
        )
        if breach is not None:
            return _stop_at(agent, breach)
        agent.stream.turn += 1
        try:
            outcome = take_turn(agent)
        except ModelError as failure:
            outcome = Continue(error=failure.type, report=failure.message)
            if failure.type in _ENDS_THE_AGENT:
                _close_turn(agent, outcome)
                return AgentEnd(RunStatus.MODEL_ERROR, message=failure.message)
        except GgDefect as defect:
            agent.stream.log(
                LogLevel.ERROR, f"gg's own defect ended the turn: {defect.message}", fault=defect.fault.value
            )
            outcome = Fatal(defect.fault, defect.message)
        end = _close_turn(agent, outcome)
        if end is not None:
            return end


def _close_turn(agent: Agent, outcome: TurnOutcome) -> AgentEnd | None:
    limits = agent.setup.limits
    agent.ledger.record(outcome, limits.error_rate_window)
    _emit_outcome(agent, outcome)
    match outcome:
        case Finished(final_text=text):
            return AgentEnd(RunStatus.COMPLETED, final_text=text)
        case Fatal(fault=fault, message=message):
            return AgentEnd(RunStatus.INTERNAL_ERROR, message=f"{fault.value}: {message}")
        case Continue():
            breach = breach_after_turn(limits, agent.ledger)
            return None if breach is None else _stop_at(agent, breach)


def _emit_outcome(agent: Agent, outcome: TurnOutcome) -> None:
    error = outcome.error if isinstance(outcome, Continue) else None
    agent.stream.emit(
        TurnOutcomeEvent(
            outcome=outcome_name(outcome).value,
            consecutive_errors=agent.ledger.consecutive,
            turns=agent.ledger.turns,
            error=None if error is None else error.kind.value,
            error_type=None if error is None else error.value,
            report=outcome.report if isinstance(outcome, Continue) else None,
            feedback=list(outcome.feedback) if isinstance(outcome, Continue) else None,
        )
    )


def _stop_at(agent: Agent, breach: Breach) -> AgentEnd:
    agent.stream.emit(
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
