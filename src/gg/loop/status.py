"""How a run ended, and the exit code each ending maps to.

Exit codes (`gg.exits`): 0 the session ended; 1 gg's own defect, a model that could not be
reached or a hook that could not judge (`hook_error`); 2 a refused capability set; 3 a ceiling
stopped the run; an interrupted run 128 + the number of the signal that stopped it: 130 for the
operator's Ctrl-C (SIGINT), 143 for SIGTERM.
"""

from __future__ import annotations

import signal
from enum import StrEnum

from gg.exits import CEILING_EXIT, DONE_EXIT, INCOMPLETE_EXIT, REFUSED_EXIT, SIGNAL_EXIT_BASE
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
    HOOK_ERROR = "hook_error"

    @property
    def exit_code(self) -> int:
        """The exit code of a run that ended so (an interrupted one, by Ctrl-C)."""
        return _EXIT_CODES[self]


_EXIT_CODES = {
    RunStatus.COMPLETED: DONE_EXIT,
    RunStatus.INTERNAL_ERROR: INCOMPLETE_EXIT,
    RunStatus.MODEL_ERROR: INCOMPLETE_EXIT,
    RunStatus.HOOK_ERROR: INCOMPLETE_EXIT,
    RunStatus.REFUSED: REFUSED_EXIT,
    RunStatus.EXHAUSTED: CEILING_EXIT,
    RunStatus.LIMIT_EXCEEDED: CEILING_EXIT,
    RunStatus.TIMED_OUT: CEILING_EXIT,
    RunStatus.INTERRUPTED: SIGNAL_EXIT_BASE + signal.SIGINT,
}


def exit_code_of(status: RunStatus, stopped_by: int | None = None) -> int:
    """The exit code of a run that ended with `status`; an interrupted one names the signal that
    stopped it in `stopped_by` (Ctrl-C's SIGINT when not given)."""
    if status is RunStatus.INTERRUPTED and stopped_by is not None:
        return SIGNAL_EXIT_BASE + stopped_by
    return _EXIT_CODES[status]


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
    interruption, or a hook that could not judge, stops it)."""
    if status in (RunStatus.INTERRUPTED, RunStatus.HOOK_ERROR):
        return AgentStatus.STOPPED
    return AgentStatus.INTERNAL_ERROR if status is RunStatus.REFUSED else AgentStatus(status.value)
