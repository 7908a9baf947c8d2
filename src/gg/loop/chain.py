"""Hand-over chains (seed 001, "Hand-over chains"; seed 000, "Handing a program over").

A program may hand over one program to run in its place once it ends. The hand-over is declined
when the handing program then failed, when it also ended the session (an ending outranks a
hand-over), or when the submission already ran `MAX_PROGRAM_CHAIN` programs. A chain is one
program to everything outside it: counts, logs and time are summed over its links; its result,
its ending and its source are the last link's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from gg.sandbox.execution import Execution, keep_log_tail
from gg.sandbox.membrane import CallCounts
from gg.sdk.scope import Declarations

MAX_PROGRAM_CHAIN = 4


class Declined(StrEnum):
    """Why a hand-over was not run."""

    FAILED = "failed"
    ENDED = "ended"
    BOUND = "bound"


@dataclass(frozen=True)
class Link:
    """One program of a chain, run."""

    source: str
    execution: Execution
    counts: CallCounts
    declarations: Declarations


@dataclass(frozen=True)
class Handover:
    """The program to run next, in the place of the one that handed it over."""

    source: str


def next_program(link: Link, links_run: int) -> Handover | Declined | None:
    """The program to run next, why the link's hand-over is declined, or None without one."""
    handover = link.declarations.handover
    if handover is None:
        return None
    if not link.execution.ok:
        return Declined.FAILED
    if link.declarations.ending is not None:
        return Declined.ENDED
    if links_run >= MAX_PROGRAM_CHAIN:
        return Declined.BOUND
    return Handover(handover)


def fold_executions(executions: Sequence[Execution]) -> Execution:
    """One execution for the whole chain: the last link's result, everything else summed."""
    last = executions[-1]
    lines = [line for execution in executions for line in execution.logs]
    dropped = sum(execution.logs_suppressed for execution in executions)
    logs, suppressed = keep_log_tail(lines, dropped)
    compile_times = [e.compile_ms for e in executions if e.compile_ms is not None]
    return Execution(
        failure=last.failure,
        duration_ms=sum(execution.duration_ms for execution in executions),
        logs=logs,
        logs_suppressed=suppressed,
        compile_ms=sum(compile_times) if compile_times else None,
        calls_refused=sum(execution.calls_refused for execution in executions),
    )


def fold_counts(counts: Sequence[CallCounts]) -> CallCounts:
    return CallCounts(
        api_calls=sum(c.api_calls for c in counts),
        tool_calls=sum(c.tool_calls for c in counts),
        refused=sum(c.refused for c in counts),
    )
