"""Each span's attributes, read off the events that open and close it. Pure.

Rules:
- A model is named on the record as `PROVIDER:MODEL` (or a bare id such as `replay`): the part
  before the colon is the provider, the rest the requested model; a bare id is both.
- A chat span's tokens are its reply's, read as `gg show` reads them: `gen_ai.usage.input_tokens`
  counts every prompt token, cache reads and writes included; its cost is `gg.cost_usd`, absent
  when the reply's price is unknown. The response model is the one the reply named, when recorded.
- A reply kept by gg either called tools (finish reason `tool_call`) or did not (`stop`).
- A program's outcome is `finished` (it ended the session), `ok` or `error`; an SDK call's is
  `gg.call.ok`, and its failure's code is `gg.call.code` and `error.type`.
- An agent's and the run's token totals are `gg.usage.*`, never `gen_ai.usage.*`, so a backend
  that sums the conventions' counts over a trace counts each reply once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gg.otel.names import SUBMIT_PROGRAM, Conventions, FinishReason, GenAi, GenAiOperation, Gg, ToolType
from gg.otel.record import float_of, int_of, list_of, reply_cost, tally, token_counts
from gg.otel.spans import Attributes


def model_parts(model_id: str) -> tuple[str, str]:
    """(provider, requested model) of a recorded model id."""
    provider, colon, model = model_id.partition(":")
    return (provider, model) if colon and model else (model_id, model_id)


def workflow_attributes(run_id: str, started: Mapping[str, Any]) -> Attributes:
    return _present(
        {
            GenAi.OPERATION: GenAiOperation.WORKFLOW.value,
            GenAi.WORKFLOW_NAME: started.get("name"),
            GenAi.CONVERSATION_ID: run_id,
            Gg.RUN_ID: run_id,
            Gg.ARM: started.get("language"),
        }
    )


def ending_attributes(finished: Mapping[str, Any]) -> Attributes:
    return _present(
        {
            Gg.RUN_STATUS: finished.get("status"),
            Gg.RUN_EXIT_CODE: finished.get("exitCode"),
            Gg.RUN_TURNS: finished.get("turns"),
        }
    )


def agent_attributes(
    run_id: str, spawned: Mapping[str, Any], relation: str, conventions: Conventions
) -> Attributes:
    provider, model = model_parts(str(spawned.get("modelId") or ""))
    return _present(
        {
            GenAi.OPERATION: GenAiOperation.AGENT.value,
            GenAi.AGENT_ID: spawned.get("agentId"),
            GenAi.AGENT_NAME: spawned.get("profileId"),
            GenAi.CONVERSATION_ID: run_id,
            conventions.provider: provider or None,
            GenAi.REQUEST_MODEL: model or None,
            Gg.AGENT_RELATION: relation,
            Gg.AGENT_DEPTH: spawned.get("depth"),
            Gg.ARM: spawned.get("language"),
        }
    )


def chat_attributes(
    run_id: str, agent_id: str, model_id: str, request: Mapping[str, Any], conventions: Conventions
) -> Attributes:
    provider, model = model_parts(model_id)
    return _present(
        {
            GenAi.OPERATION: GenAiOperation.CHAT.value,
            conventions.provider: provider or None,
            GenAi.REQUEST_MODEL: model or None,
            GenAi.CONVERSATION_ID: run_id,
            GenAi.AGENT_ID: agent_id,
            Gg.TURN: request.get("turn"),
        }
    )


def finish_reason(reply: Mapping[str, Any]) -> str:
    return FinishReason.TOOL_CALL.value if list_of(reply.get("calls")) else FinishReason.STOP.value


def reply_attributes(reply: Mapping[str, Any]) -> Attributes:
    recorded = reply.get("usage")
    usage = token_counts(recorded if isinstance(recorded, Mapping) else {})
    return _present(
        {
            GenAi.RESPONSE_MODEL: reply.get("responseModel"),
            GenAi.FINISH_REASONS: (finish_reason(reply),),
            GenAi.INPUT_TOKENS: usage.input,
            GenAi.OUTPUT_TOKENS: usage.output,
            GenAi.CACHE_READ_TOKENS: usage.cache_read,
            GenAi.CACHE_CREATION_TOKENS: usage.cache_write,
            Gg.COST_USD: reply_cost(reply),
        }
    )


def spent_attributes(replies: Iterable[Mapping[str, Any]]) -> Attributes:
    """The `gg.usage.*` totals and the known cost of some replies (an agent's, the run's)."""
    spent = tally(replies)
    return _present(
        {
            Gg.USAGE_INPUT: spent.tokens.input,
            Gg.USAGE_OUTPUT: spent.tokens.output,
            Gg.USAGE_CACHE_READ: spent.tokens.cache_read,
            Gg.USAGE_CACHE_WRITE: spent.tokens.cache_write,
            Gg.COST_USD: spent.cost_usd,
        }
    )


def program_attributes(
    execution: Mapping[str, Any], receipt: Mapping[str, Any] | None, arm: str | None
) -> Attributes:
    ok = bool(execution.get("ok"))
    outcome = "finished" if execution.get("finished") is not None else ("ok" if ok else "error")
    links = list_of(execution.get("links"))
    return _present(
        {
            GenAi.OPERATION: GenAiOperation.TOOL.value,
            GenAi.TOOL_NAME: SUBMIT_PROGRAM,
            GenAi.TOOL_TYPE: ToolType.FUNCTION.value,
            GenAi.TOOL_CALL_ID: receipt.get("callId") if receipt else None,
            Gg.RECEIPT: receipt.get("body") if receipt else None,
            Gg.PROGRAM_ID: execution.get("programId"),
            Gg.SUBMISSION: execution.get("submission"),
            Gg.TURN: execution.get("turn"),
            Gg.ARM: arm,
            Gg.OUTCOME: outcome,
            GenAi.ERROR_TYPE: None if ok else (execution.get("errorType") or "error"),
            Gg.COMPILE_MS: float_of(execution.get("compileMs")),
            Gg.RUN_MS: float_of(execution.get("durationMs")),
            Gg.CHAIN_LINKS: len(links) if links else max(int_of(execution.get("programs")), 1),
            Gg.SDK_CALLS: int_of(execution.get("apiCalls")),
        }
    )


def call_attributes(call: Mapping[str, Any]) -> Attributes:
    return _present(
        {
            GenAi.OPERATION: GenAiOperation.TOOL.value,
            GenAi.TOOL_NAME: call.get("operation"),
            GenAi.TOOL_TYPE: ToolType.FUNCTION.value,
            Gg.ORDINAL: call.get("ordinal"),
        }
    )


def result_attributes(result: Mapping[str, Any]) -> Attributes:
    ok = bool(result.get("ok"))
    failure = None if ok else str(result.get("failure") or "other")
    return _present({Gg.OK: ok, Gg.CODE: failure, GenAi.ERROR_TYPE: failure})


def _present(values: Mapping[str, Any]) -> Attributes:
    """The values OpenTelemetry can carry, those that are None left out."""
    out: Attributes = {}
    for key, value in values.items():
        if isinstance(value, str | bool | int | float):
            out[str(key)] = value
        elif isinstance(value, tuple) and all(isinstance(item, str) for item in value):
            out[str(key)] = tuple(str(item) for item in value)
    return out
