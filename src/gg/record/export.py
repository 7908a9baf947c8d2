"""The machine-readable forms of `gg runs --json` and `gg show --json`. Pure.

Rules:
- Keys are camelCase, as on the events, and stable: a key is never renamed or dropped, and a value
  that is not known is `null`, never left out. Both documents open with `"schema": 1`.
- `gg runs --json`: `{"schema", "runs": [RUN, ...]}`, newest first. A RUN holds `id`, `name`,
  `status` (as `gg runs` shows it), `exitCode`, `arm`, `model` (the root's), `models` (every
  model the run's agents were answered by, the root's first), `turns`, `errorTurns`,
  `inputTokens`, `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`, `costUsd`,
  `unpricedReplies`, `startedAt`, `finishedAt`, `durationMs`, `configPath`, `workspace`, `message`,
  `finalText`.
- A RUN's `status` is how it ended (`completed`, `exhausted`, `limit_exceeded`, `timed_out`,
  `model_error`, `internal_error`, `hook_error`, `refused`, `interrupted`) with its `exitCode`
  (what `gg run` exited with: `interrupted` is 130 for the operator's Ctrl-C, 143 for a
  SIGTERM), or one of two states that recorded no end, whose `exitCode` and `finishedAt` are
  `null`: `running` (its process is alive) and `unfinished` (its process is gone without writing
  its end: `kill -9`, a crash).
- `gg show --json`: `{"schema", "run": RUN, "agents": [AGENT, ...], "turns": [TURN, ...], "logs":
  [LOG, ...]}`, the texts exactly as recorded. An AGENT (in tree order) holds `id`, `parentAgentId`,
  `relation` (`root`, `subagent`, `fork`, `exec`, `fsm`), `profileId`, `modelId`, `depth`, `state`,
  `brief`, `status` and `summary`. A TURN holds `agentId`, `turn`, `startedAt`, `read` (the messages
  the model read: `role`, `content`, `toolCallId`, `echo`), `reply` (`text`, `durationMs`,
  `inputTokens`, `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`, `costUsd`), `calls`
  (`callId`, `tool`, `arguments`: their parsed value, `null` for text that is not JSON;
  `rawArguments`: the text the provider sent, `null` when it sent an object; `receipt`,
  `programId`), `programs` (PROGRAM), `logs`, `outcome`
  (`outcome`, `errorType`, `error`, `consecutiveErrors`, `report`, `feedback`; `null` for a turn
  that never closed: an `interrupted` or `unfinished` run's last turn) and `limits` (`limit`,
  `threshold`, `observed`, `turns`, `window`). A PROGRAM holds `submission`, `programId`, `callId`,
  `ok`, `errorType`, `error`, `location`, `durationMs`, `apiCalls`, `toolCalls`, `logs`,
  `logsSuppressed`, `finished`, `source` and `links` (each link of a hand-over chain: `source`,
  `ok`, `errorType`, `error`, `location`, `durationMs`, `apiCalls`; empty for a single program).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gg.record.agents import RecordedInstance
from gg.record.records import (
    LimitRecord,
    LinkRun,
    OperatorLog,
    Outcome,
    RecordedCall,
    RecordedMessage,
    RecordedProgram,
)
from gg.record.runs import ListedRun, elapsed_ms
from gg.record.tally import TokenCounts
from gg.record.transcript import Transcript, Turn
from gg.telemetry.events import UsageKey

SCHEMA = 1


def runs_document(runs: Sequence[ListedRun]) -> dict[str, Any]:
    """`gg runs --json`: each run with the status shown for it and its tally."""
    return {"schema": SCHEMA, "runs": [run_entry(run) for run in runs]}


def run_entry(run: ListedRun) -> dict[str, Any]:
    row, spent = run.row, run.tally
    return {
        "id": row.id,
        "name": row.name,
        "status": run.status,
        "exitCode": row.exit_code,
        "arm": row.language,
        "model": row.model,
        "models": list(spent.models) or [row.model],
        "turns": row.turns,
        "errorTurns": spent.error_turns,
        **_tokens(spent.tokens),
        "costUsd": spent.cost_usd,
        "unpricedReplies": spent.unpriced,
        "startedAt": row.started_at,
        "finishedAt": row.finished_at,
        "durationMs": elapsed_ms(row),
        "configPath": row.config_path,
        "workspace": row.workspace,
        "message": row.message,
        "finalText": row.final_text,
    }


def show_document(run: ListedRun, transcript: Transcript) -> dict[str, Any]:
    """`gg show --json`: the run's entry, every turn, and the run-level operator logs."""
    return {
        "schema": SCHEMA,
        "run": run_entry(run),
        "agents": [_agent(agent) for agent in transcript.agents],
        "turns": [_turn(turn) for turn in transcript.turns],
        "logs": [_log(log) for log in transcript.logs],
    }


def _agent(agent: RecordedInstance) -> dict[str, Any]:
    return {
        "id": agent.id,
        "parentAgentId": agent.parent,
        "relation": agent.relation,
        "profileId": agent.profile or None,
        "modelId": agent.model or None,
        "depth": agent.depth,
        "state": agent.state,
        "brief": agent.brief,
        "status": agent.status,
        "summary": agent.summary,
    }


def _tokens(tokens: TokenCounts) -> dict[str, int | None]:
    return {
        UsageKey.INPUT.value: tokens.input,
        UsageKey.OUTPUT.value: tokens.output,
        UsageKey.CACHE_READ.value: tokens.cache_read,
        UsageKey.CACHE_WRITE.value: tokens.cache_write,
    }


def _turn(turn: Turn) -> dict[str, Any]:
    return {
        "agentId": turn.agent_id,
        "turn": turn.number,
        "startedAt": turn.started_at,
        "read": [_message(m) for m in turn.read],
        "reply": {
            "text": turn.reply_text,
            "durationMs": turn.reply_ms,
            **_tokens(turn.tokens),
            "costUsd": turn.cost_usd,
        },
        "calls": [_call(c) for c in turn.calls],
        "programs": [_program(p) for p in turn.programs],
        "logs": [_log(log) for log in turn.logs],
        "outcome": None if turn.outcome is None else _outcome(turn.outcome),
        "limits": [_limit(limit) for limit in turn.limits],
    }


def _message(message: RecordedMessage) -> dict[str, Any]:
    return {
        "role": message.role,
        "content": message.content,
        "toolCallId": message.tool_call_id,
        "echo": message.echo,
    }


def _call(call: RecordedCall) -> dict[str, Any]:
    return {
        "callId": call.call_id,
        "tool": call.tool,
        "arguments": call.arguments,
        "rawArguments": call.raw_arguments,
        "receipt": call.receipt,
        "programId": call.program_id,
    }


def _program(program: RecordedProgram) -> dict[str, Any]:
    return {
        "submission": program.submission,
        "programId": program.program_id,
        "callId": program.call_id,
        "ok": program.ok,
        "errorType": program.error_type,
        "error": program.error,
        "location": program.location,
        "durationMs": program.duration_ms,
        "apiCalls": program.api_calls,
        "toolCalls": program.tool_calls,
        "logs": list(program.logs),
        "logsSuppressed": program.logs_suppressed,
        "finished": program.finished,
        "source": program.source,
        "links": [_link(link) for link in program.links],
    }


def _link(link: LinkRun) -> dict[str, Any]:
    return {
        "source": link.source,
        "ok": link.ok,
        "errorType": link.error_type,
        "error": link.error,
        "location": link.location,
        "durationMs": link.duration_ms,
        "apiCalls": link.api_calls,
    }


def _outcome(outcome: Outcome) -> dict[str, Any]:
    return {
        "outcome": outcome.outcome,
        "errorType": outcome.error_type,
        "error": outcome.error,
        "consecutiveErrors": outcome.consecutive_errors,
        "report": outcome.report,
        "feedback": list(outcome.feedback),
    }


def _limit(limit: LimitRecord) -> dict[str, Any]:
    return {
        "limit": limit.limit,
        "threshold": limit.threshold,
        "observed": limit.observed,
        "turns": limit.turns,
        "window": limit.window,
    }


def _log(log: OperatorLog) -> dict[str, Any]:
    return {"level": log.level, "message": log.message, "fields": log.fields}
