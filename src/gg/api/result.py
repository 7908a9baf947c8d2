"""What `gg.run` hands back: how the run ended, its final word, and what each agent did.

Read from the run's `run_finished` event, the record every run ends with: its `summary` holds one
entry under `agents` for every agent instance the run opened (each incarnation of a succession
its own), in the order they opened; a run refused before any agent opened has none. `cost_usd`
and `turns` are the whole run's: every agent's spend, every agent's turns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from gg.telemetry.events import UsageKey

if TYPE_CHECKING:
    from gg.telemetry.events import RunFinished


@dataclass(frozen=True)
class AgentSummary:
    """One agent instance of the run (`root`, `root.1`, `root@2`): its turns, the programs it ran,
    its error turns, and its own tokens and cost."""

    agent_id: str
    turns: int
    programs: int
    error_turns: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None


@dataclass(frozen=True)
class RunResult:
    """How a run ended. `status` is `completed`, `exhausted`, `limit_exceeded`, `timed_out`,
    `model_error`, `internal_error`, `hook_error` or `refused`; `exit_code` is what `gg run` exits
    with (0 the session ended, 1 a defect, an unreachable model or a hook that could not judge, 2
    refused, 3 a ceiling stopped it);
    `final_text` is the session's last word (`session.finish(summary)`), `message` why it ended
    otherwise; `cost_usd` is what its models cost (None when no reply was priced)."""

    run_id: str
    status: str
    exit_code: int
    final_text: str | None
    message: str | None
    agents: tuple[AgentSummary, ...]
    cost_usd: float | None
    turns: int

    @property
    def ok(self) -> bool:
        """Whether the session ended (`completed`)."""
        return self.exit_code == 0


def result_of(run_id: str, finished: RunFinished) -> RunResult:
    summary = finished.summary or {}  # none when the run was refused before any agent opened
    usage = _object(summary.get("usage"))
    cost = usage.get("costUsd")
    listed = summary.get("agents")
    entries = cast(list[Any], listed) if isinstance(listed, list) else []
    return RunResult(
        run_id=run_id,
        status=finished.status,
        exit_code=finished.exit_code,
        final_text=finished.final_text,
        message=finished.message,
        agents=tuple(_agent(_object(entry)) for entry in entries),
        cost_usd=float(cost) if isinstance(cost, int | float) else None,
        turns=finished.turns,
    )


def _agent(entry: Mapping[str, Any]) -> AgentSummary:
    errors, usage = _object(entry.get("errors")), _object(entry.get("usage"))
    cost = usage.get("costUsd")
    return AgentSummary(
        agent_id=str(entry.get("agentId", "")),
        turns=_count(entry.get("turns")),
        programs=_count(entry.get("codeExecutions")),
        error_turns=_count(errors.get("errors")),
        input_tokens=_count(usage.get(UsageKey.INPUT)),
        output_tokens=_count(usage.get(UsageKey.OUTPUT)),
        cost_usd=float(cost) if isinstance(cost, int | float) else None,
    )


def _object(value: Any) -> dict[str, Any]:
    return dict(cast(Mapping[str, Any], value)) if isinstance(value, Mapping) else {}


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
