"""Running one submission (seed 001, "Turn execution", steps 2-5): its program, and the programs
it hands over, each in the agent's arm behind the membrane, under the agent's ceilings and what
is left of the run's time; then the library entry, the one `code_execution` record for the whole
chain, and what the agent's modules report since.

A run that comes to hold a fault (its record lost, another agent's defect) while a program runs
stops it at once: what is left of the run's time reads 0 to the program's ceiling from then on,
so its guest is stopped as one past its time, and the program is never judged or recorded
(`Run.halt_if_broken` after it: the turn is Fatal). Its calls are refused meanwhile (the scope's
`halt`, `gg.sandbox.membrane`)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from gg.deadline import RunLeft
from gg.loop.calls import Submission
from gg.loop.chain import Handover, Link, fold_counts, fold_executions, next_program
from gg.loop.modules import report
from gg.loop.run import Run
from gg.loop.stream import AgentStream
from gg.loop.verdict import ProgramRun
from gg.sandbox.membrane import Membrane
from gg.sdk.scope import DeferredDeclarations, ProgramScope
from gg.state.library import LibraryEntry, ProgramLibrary
from gg.telemetry.events import ChainLink, CodeExecution, ProgramDropped, ProgramKept

if TYPE_CHECKING:
    from gg.loop.agent import Incarnation


def run_submission(
    agent: Incarnation, run: Run, submission: Submission, index: int, deferred: DeferredDeclarations
) -> ProgramRun:
    """Run the program exactly as sent, then whatever it hands over (at most the chain bound).

    A `GgDefect` from the guest or the host propagates: the turn is Fatal.
    """
    links = [_run_link(agent, run, submission.program, deferred)]
    step = next_program(links[-1], len(links))
    while isinstance(step, Handover):
        links.append(_run_link(agent, run, step.source, deferred))
        step = next_program(links[-1], len(links))
    last = links[-1]
    ran = ProgramRun(
        submission=submission,
        source=last.source,
        execution=fold_executions([link.execution for link in links]),
        counts=fold_counts([link.counts for link in links]),
        ending=last.declarations.ending,
        endings_replaced=sum(link.declarations.endings_replaced for link in links),
        links=len(links),
        declined=step,
    )
    _keep(agent.holdings.library, agent.stream, ran)
    _record(agent.stream, ran, index, links)
    report(agent.stream, agent.holdings.modules)
    agent.executions += 1
    return ran


def _run_link(agent: Incarnation, run: Run, source: str, deferred: DeferredDeclarations) -> Link:
    """One program of the chain, in the run's arm for the agent's language, behind the membrane
    (a call waiting on outside work steps aside from the arm's guests)."""
    setup, held = agent.setup, agent.holdings
    scope = _program_scope(agent, run, deferred)
    aside = partial(run.guests(setup.language, agent.owner).stepped_aside, holding=True)
    membrane = Membrane(setup.registry, scope, agent.stream, setup.language.id, run.clock, aside)
    arm = run.arm(setup.language, setup.registry)
    ceilings = replace(setup.ceilings, run_left=_left_unless_broken(run))
    modules = held.surface.modules.current()
    execution = arm.run(source, membrane, ceilings, modules, owner=agent.owner)
    run.halt_if_broken()
    return Link(source, execution, membrane.counts, scope.declarations)


def _left_unless_broken(run: Run) -> RunLeft:
    """What is left of the run's time, as a program's ceiling reads it: none once the run holds a
    fault (see the module rules)."""
    return lambda: 0.0 if run.fault is not None else run.left()


def _program_scope(agent: Incarnation, run: Run, deferred: DeferredDeclarations) -> ProgramScope:
    """What one program of `agent` acts on in its current turn: its setup's role, capabilities,
    workspace, arm spelling and shell, what it holds, its port onto the run's other agents, and
    the run's deadline on the run's clock, and its halt (a run that holds a fault serves no call)."""
    setup, held = agent.setup, agent.holdings
    return ProgramScope(
        agent_id=agent.id,
        role=setup.role,
        capabilities=setup.capabilities,
        workspace=setup.workspace,
        views=held.views,
        turn=agent.stream.turn,
        library=held.library,
        deadline=run.deadline,
        clock=run.clock,
        halt=run.halt_if_broken,
        window=held.window,
        archive=held.archive,
        surface=held.surface,
        skills_read=held.skills_read,
        tasks=held.tasks,
        board=held.board,
        memories=held.memories,
        spell=setup.registry.spelling(setup.language.id),
        shell=setup.shell,
        delegation=agent.delegation,
        hooks=agent.hooks,
        deferred=deferred,
    )


def _keep(library: ProgramLibrary | None, stream: AgentStream, ran: ProgramRun) -> None:
    """Step 4: the library records the source that executed, with its verdict."""
    program_id = ran.submission.program_id
    if library is None or program_id is None:
        return
    failure = ran.execution.failure
    entry = LibraryEntry(program_id, stream.turn, ran.source, ran.execution.ok, failure and failure.text)
    dropped = library.record(entry)
    stream.emit(
        ProgramKept(
            program_id=program_id, lines=entry.lines, chars=entry.chars, ok=entry.ok, error=entry.error
        )
    )
    for gone in dropped:
        stream.emit(ProgramDropped(program_id=gone))


def _record(stream: AgentStream, ran: ProgramRun, index: int, links: list[Link]) -> None:
    """Step 5: one `code_execution` for the submission, however many programs its chain ran;
    a chain's record carries each link's own source and verdict."""
    execution, ending = ran.execution, ran.surviving_ending
    if ran.links > 1:
        stream.log_info(f"submission {index + 1} ran a chain of {ran.links} programs", programs=ran.links)
    stream.emit(
        CodeExecution(
            submission=index + 1,
            ok=execution.ok,
            tool_calls=ran.counts.tool_calls,
            api_calls=ran.counts.api_calls,
            duration_ms=round(execution.duration_ms, 3),
            logs=list(execution.logs),
            logs_suppressed=execution.logs_suppressed or None,
            error=None if execution.failure is None else execution.failure.text,
            error_type=None if execution.failure is None else execution.failure.type.value,
            finished=None if ending is None else ending.final_text,
            compile_ms=execution.compile_ms,
            program_id=ran.submission.program_id,
            source=ran.source,
            programs=ran.links if ran.links > 1 else None,
            links=[_chain_link(link) for link in links] if len(links) > 1 else None,
            calls_refused=(execution.calls_refused + ran.counts.refused) or None,
        )
    )


def _chain_link(link: Link) -> dict[str, Any]:
    failure = link.execution.failure
    return ChainLink(
        source=link.source,
        ok=link.execution.ok,
        duration_ms=round(link.execution.duration_ms, 3),
        api_calls=link.counts.api_calls,
        error_type=None if failure is None else failure.type.value,
        error=None if failure is None else failure.text,
    ).to_wire()
