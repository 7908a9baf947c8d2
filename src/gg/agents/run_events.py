"""A run's two ends on its record: `run_started`, and `run_finished` with its rollup.

Rules kept here:
- `run_started` names the run, its capability set, its workspace, the root's arm and limits and
  the model that answers the root (none for a root that names none and is handed none: the
  launch refuses it as the root opens);
- before `run_finished`, each journal line naming an agent instance the run never opened is
  warned of, on the run's own record;
- `run_finished` sums every agent's turns (every turn begun: one an interruption or the run's
  time cut short counts), programs, errors and spend, and lists each agent's own; an interrupted
  run's exit code names the signal that stopped it;
- a run holding a fault (its record lost, an agent's defect) ends `internal_error` naming it,
  whatever else ended it; when the record could not keep `run_finished` itself, the end is
  written again, as gg's defect, wherever the record still holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gg.agents.context import RunContext
from gg.agents.models import ModelClients
from gg.agents.spawner import Spawner
from gg.config.model import Agent, CapabilitySet
from gg.errors import ConfigError
from gg.ids import ROOT_ID
from gg.loop.agent import AgentEnd
from gg.loop.limits import ErrorLedger
from gg.loop.status import RunStatus, exit_code_of
from gg.loop.stream import AgentStream
from gg.telemetry.events import RunFinished, RunStarted


def record_end(
    stream: AgentStream,
    run: RunContext,
    end: AgentEnd,
    spawner: Spawner | None,
    clients: ModelClients,
    stopped_by: int | None,
) -> AgentEnd:
    """The run's last words on its record: the journal lines it never used, then `run_finished`
    (an interrupted run's exit code names the signal that stopped it). Returns the end recorded:
    when the record could not keep `run_finished` itself, the end is gg's defect, written again
    wherever the record still holds."""
    _tell_unused_lines(run.stream(ROOT_ID), clients)  # at turn 0: the run's, not a turn's
    end = _with_fault(end, run)
    summary = None if spawner is None else _summary(spawner, run)
    stream.emit(_finished(end, summary, run, stopped_by))
    recorded = _with_fault(end, run)
    if recorded is not end:
        stream.emit(_finished(recorded, summary, run, stopped_by))
    return recorded


def _with_fault(end: AgentEnd, run: RunContext) -> AgentEnd:
    """A run holding a fault (its record lost, an agent's defect) ends `internal_error` naming
    it, whatever else ended it; an end already naming the fault (a launch refused because its
    record could not be made) stands."""
    if run.fault is None or end.message == run.fault:
        return end
    return AgentEnd(RunStatus.INTERNAL_ERROR, message=run.fault)


def _finished(
    end: AgentEnd, summary: dict[str, Any] | None, run: RunContext, stopped_by: int | None
) -> RunFinished:
    return RunFinished(
        status=end.status.value,
        exit_code=exit_code_of(end.status, stopped_by),
        turns=0 if summary is None else summary["turns"],
        duration_ms=round(run.elapsed() * 1000, 1),
        final_text=end.final_text,
        message=end.message,
        summary=summary,
    )


def _tell_unused_lines(stream: AgentStream, clients: ModelClients) -> None:
    """A warning, on the run's own record, for each journal line that named an agent instance the
    run never opened."""
    for path, reply in clients.unused_lines():
        stream.warn(
            f"{path.name} line {reply.line} names agent {reply.agent}, which this run never opened",
            journal=str(path),
            line=reply.line,
            agentId=reply.agent,
        )


def _summary(spawner: Spawner, run: RunContext) -> dict[str, Any]:
    """The run's rollup: every agent's turns (every turn begun: one an interruption or the run's
    time cut short counts), programs and errors summed, the run's spend, and each agent's own
    summary."""
    agents = spawner.incarnations()
    return {
        "turns": sum(agent.begun for agent in agents),
        "codeExecutions": sum(agent.executions for agent in agents),
        "errors": ErrorLedger.merged([agent.tally for agent in agents]).to_wire(),
        "usage": run.spend.to_wire(),
        "agents": [agent.summary() for agent in agents],
    }


def _model_named(clients: ModelClients, root: Agent) -> str:
    """The model the run names for its root; none for a root that names none and is handed none
    (the launch refuses it, saying so, as the root opens)."""
    try:
        return clients.named(root)
    except ConfigError:
        return ""


def run_started(
    capability_set: CapabilitySet, config_path: Path, workspace: Path, clients: ModelClients
) -> RunStarted:
    """The run's first event: what it runs, where, answered by which model, under which limits."""
    entry = capability_set.entry(capability_set.root)
    return RunStarted(
        name=capability_set.name,
        config_path=str(config_path),
        workspace=str(workspace),
        model=_model_named(clients, entry),
        language=entry.language.value,
        limits=capability_set.limits.model_dump(by_alias=True, exclude_none=True),
    )
