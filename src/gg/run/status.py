"""How a run ended, and the exit code each ending maps to.

Exit codes: 0 the session ended; 1 gg's own defect or a model that could not be reached; 2 a
refused capability set; 3 a ceiling stopped the run; 130 the operator interrupted it (Ctrl-C).
"""

from __future__ import annotations

from enum import StrEnum

from gg.loop.limits import LimitName


class RunStatus(StrEnum):
    COMPLETED = "completed"
    EXHAUSTED = "exhausted"
    LIMIT_EXCEEDED = "limit_exceeded"
    TIMED_OUT = "timed_out"
    INTERNAL_ERROR = "internal_error"
    MODEL_ERROR = "model_error"
    REFUSED = "refused"
    INTERRUPTED = "interrupted"

    @property
    def exit_code(self) -> int:
        return _EXIT_CODES[self]


_EXIT_CODES = {
    RunStatus.COMPLETED: 0,
    RunStatus.INTERNAL_ERROR: 1,
    RunStatus.MODEL_ERROR: 1,
    RunStatus.REFUSED: 2,
    RunStatus.EXHAUSTED: 3,
    RunStatus.LIMIT_EXCEEDED: 3,
    RunStatus.TIMED_OUT: 3,
    RunStatus.INTERRUPTED: 130,
}


def status_of_breach(limit: LimitName) -> RunStatus:
    match limit:
        case LimitName.TURNS:
            return RunStatus.EXHAUSTED
        case LimitName.RUNTIME:
            return RunStatus.TIMED_OUT
        case LimitName.CONSECUTIVE_ERRORS | LimitName.ERROR_RATE | LimitName.COST:
            return RunStatus.LIMIT_EXCEEDED


class AgentStatus(StrEnum):
    """How one agent ended (`agent_finished.status`; a `SubagentResult`'s, for the five a parent can
    read): its own ending, a ceiling, its model, gg's own defect, or the run stopping it."""

    COMPLETED = "completed"
    EXHAUSTED = "exhausted"
    TIMED_OUT = "timed_out"
    MODEL_ERROR = "model_error"
    LIMIT_EXCEEDED = "limit_exceeded"
    INTERNAL_ERROR = "internal_error"
    STOPPED = "stopped"


def agent_status(status: RunStatus) -> AgentStatus:
    """The agent's status for the run status its end maps to (a refusal never ends an agent; an
    interruption stops it)."""
    if status is RunStatus.INTERRUPTED:
        return AgentStatus.STOPPED
    return AgentStatus.INTERNAL_ERROR if status is RunStatus.REFUSED else AgentStatus(status.value)
