"""Running one submission's program: scope, membrane, guest, and its `code_execution` record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gg.loop.calls import Submission
from gg.loop.verdict import ProgramRun
from gg.sandbox.membrane import Membrane
from gg.sdk.scope import ProgramScope
from gg.telemetry.events import CodeExecution

if TYPE_CHECKING:
    from gg.loop.agent import Agent


def run_program(agent: Agent, submission: Submission, index: int) -> ProgramRun:
    """Run the program exactly as sent; a `GgDefect` from the guest or the host propagates."""
    setup = agent.setup
    scope = ProgramScope(
        agent_id=setup.agent_id,
        role=setup.role,
        capabilities=setup.capabilities,
        workspace=agent.workspace,
        views=agent.views,
        turn=agent.stream.turn,
    )
    membrane = Membrane(agent.registry, scope, agent.stream, setup.language)
    execution = agent.arm.run(submission.program, membrane, setup.ceilings)
    run = ProgramRun(
        submission=submission,
        execution=execution,
        counts=membrane.counts,
        ending=scope.declarations.ending,
        endings_replaced=scope.declarations.endings_replaced,
    )
    _record(agent, run, index)
    return run


def _record(agent: Agent, run: ProgramRun, index: int) -> None:
    execution, ending = run.execution, run.surviving_ending
    agent.stream.emit(
        CodeExecution(
            submission=index + 1,
            ok=execution.ok,
            tool_calls=run.counts.tool_calls,
            api_calls=run.counts.api_calls,
            duration_ms=round(execution.duration_ms, 3),
            logs=list(execution.logs),
            logs_suppressed=execution.logs_suppressed or None,
            error=None if execution.failure is None else execution.failure.text,
            error_type=None if execution.failure is None else execution.failure.type.value,
            finished=None if ending is None else ending.final_text,
            compile_ms=execution.compile_ms,
            source=run.submission.program,
        )
    )
