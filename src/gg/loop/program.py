"""Running one submission (seed 001, "Turn execution", steps 2-5): its program, and the programs
it hands over, each in the agent's arm behind the membrane; then the library entry and the one
`code_execution` record for the whole chain."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gg.loop.calls import Submission
from gg.loop.chain import Handover, Link, fold_counts, fold_executions, next_program
from gg.loop.verdict import ProgramRun
from gg.sandbox.membrane import Membrane
from gg.sdk.scope import DeferredDeclarations, ProgramScope
from gg.state.library import LibraryEntry
from gg.telemetry.events import CodeExecution, ProgramDropped, ProgramKept

if TYPE_CHECKING:
    from gg.loop.agent import Agent


def run_submission(
    agent: Agent, submission: Submission, index: int, deferred: DeferredDeclarations
) -> ProgramRun:
    """Run the program exactly as sent, then whatever it hands over (at most the chain bound).

    A `GgDefect` from the guest or the host propagates: the turn is Fatal.
    """
    links = [_run_link(agent, submission.program, deferred)]
    step = next_program(links[-1], len(links))
    while isinstance(step, Handover):
        links.append(_run_link(agent, step.source, deferred))
        step = next_program(links[-1], len(links))
    last = links[-1]
    run = ProgramRun(
        submission=submission,
        source=last.source,
        execution=fold_executions([link.execution for link in links]),
        counts=fold_counts([link.counts for link in links]),
        ending=last.declarations.ending,
        endings_replaced=sum(link.declarations.endings_replaced for link in links),
        links=len(links),
        declined=step,
    )
    _keep(agent, run)
    _record(agent, run, index)
    agent.executions += 1
    return run


def _run_link(agent: Agent, source: str, deferred: DeferredDeclarations) -> Link:
    setup = agent.setup
    scope = ProgramScope(
        agent_id=setup.agent_id,
        role=setup.role,
        capabilities=setup.capabilities,
        workspace=agent.workspace,
        views=agent.views,
        turn=agent.stream.turn,
        library=agent.library,
        deadline=agent.deadline,
        surface=agent.surface,
        shell=agent.shell,
        deferred=deferred,
    )
    membrane = Membrane(agent.registry, scope, agent.stream, setup.language)
    execution = agent.arm.run(source, membrane, setup.ceilings, agent.surface.modules.current())
    return Link(source, execution, membrane.counts, scope.declarations)


def _keep(agent: Agent, run: ProgramRun) -> None:
    """Step 4: the library records the source that executed, with its verdict."""
    program_id = run.submission.program_id
    if agent.library is None or program_id is None:
        return
    failure = run.execution.failure
    entry = LibraryEntry(
        program_id, agent.stream.turn, run.source, run.execution.ok, failure and failure.text
    )
    dropped = agent.library.record(entry)
    agent.stream.emit(
        ProgramKept(
            program_id=program_id, lines=entry.lines, chars=entry.chars, ok=entry.ok, error=entry.error
        )
    )
    for gone in dropped:
        agent.stream.emit(ProgramDropped(program_id=gone))


def _record(agent: Agent, run: ProgramRun, index: int) -> None:
    """Step 5: one `code_execution` for the submission, however many programs its chain ran."""
    execution, ending = run.execution, run.surviving_ending
    if run.links > 1:
        agent.stream.log_info(
            f"submission {index + 1} ran a chain of {run.links} programs", programs=run.links
        )
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
            program_id=run.submission.program_id,
            source=run.source,
            programs=run.links if run.links > 1 else None,
        )
    )
