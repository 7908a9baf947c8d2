"""The names gg's spans carry, declared once: the GenAI semantic conventions' and gg's own.

Rules:
- Span names follow the conventions: `invoke_workflow {run name}` (the run), `invoke_agent
  {profile}` (an agent instance), `chat {model}` (a model request), `execute_tool submit_program`
  (a submission's program) and `execute_tool {operation}` (an SDK call).
- The conventions' names are those of the v1.36.0 baseline, except where a later experimental
  version renamed them: `OTEL_SEMCONV_STABILITY_OPT_IN` holding `gen_ai_latest_experimental` switches
  to the latest names and drops the old (the provider: `gen_ai.system` becomes
  `gen_ai.provider.name`). Names the baseline does not have (the cache-token counts, the content
  attributes) are spelled as the latest conventions spell them either way.
- What the conventions have no name for is a `gg.*` attribute (cost, outcomes, dispositions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

OPT_IN_VARIABLE = "OTEL_SEMCONV_STABILITY_OPT_IN"
LATEST_EXPERIMENTAL = "gen_ai_latest_experimental"
SUBMIT_PROGRAM = "submit_program"


class GenAiOperation(StrEnum):
    """`gen_ai.operation.name` values, and the first word of each span's name."""

    WORKFLOW = "invoke_workflow"
    AGENT = "invoke_agent"
    CHAT = "chat"
    TOOL = "execute_tool"


class GenAi(StrEnum):
    """The conventions' attribute names gg sets."""

    OPERATION = "gen_ai.operation.name"
    WORKFLOW_NAME = "gen_ai.workflow.name"
    CONVERSATION_ID = "gen_ai.conversation.id"
    AGENT_ID = "gen_ai.agent.id"
    AGENT_NAME = "gen_ai.agent.name"
    SYSTEM = "gen_ai.system"  # the v1.36.0 baseline's name for the provider
    PROVIDER_NAME = "gen_ai.provider.name"  # the latest experimental name for it
    REQUEST_MODEL = "gen_ai.request.model"
    RESPONSE_MODEL = "gen_ai.response.model"
    FINISH_REASONS = "gen_ai.response.finish_reasons"
    INPUT_TOKENS = "gen_ai.usage.input_tokens"
    OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
    CACHE_READ_TOKENS = "gen_ai.usage.cache_read.input_tokens"
    CACHE_CREATION_TOKENS = "gen_ai.usage.cache_creation.input_tokens"
    TOOL_NAME = "gen_ai.tool.name"
    TOOL_TYPE = "gen_ai.tool.type"
    TOOL_CALL_ID = "gen_ai.tool.call.id"
    TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments"
    TOOL_CALL_RESULT = "gen_ai.tool.call.result"
    INPUT_MESSAGES = "gen_ai.input.messages"
    OUTPUT_MESSAGES = "gen_ai.output.messages"
    SYSTEM_INSTRUCTIONS = "gen_ai.system_instructions"
    ERROR_TYPE = "error.type"


class Gg(StrEnum):
    """gg's own attribute names, for what the conventions do not name."""

    RUN_ID = "gg.run.id"
    RUN_STATUS = "gg.run.status"
    RUN_EXIT_CODE = "gg.run.exit_code"
    RUN_TURNS = "gg.run.turns"
    ARM = "gg.arm"
    TURN = "gg.turn"
    COST_USD = "gg.cost_usd"
    USAGE_INPUT = "gg.usage.input_tokens"
    USAGE_OUTPUT = "gg.usage.output_tokens"
    USAGE_CACHE_READ = "gg.usage.cache_read_tokens"
    USAGE_CACHE_WRITE = "gg.usage.cache_write_tokens"
    AGENT_RELATION = "gg.agent.relation"
    AGENT_DEPTH = "gg.agent.depth"
    AGENT_STATUS = "gg.agent.status"
    AGENT_STATE = "gg.agent.state"
    AGENT_BRIEF = "gg.agent.brief"
    AGENT_SUMMARY = "gg.agent.summary"
    ORIGIN_AGENT = "gg.agent.origin.agent_id"
    ORIGIN_SPAN = "gg.agent.origin.span_id"
    RECEIPT = "gg.program.receipt"
    PROGRAM_ID = "gg.program.id"
    SUBMISSION = "gg.program.submission"
    OUTCOME = "gg.program.outcome"
    COMPILE_MS = "gg.program.compile_ms"
    RUN_MS = "gg.program.run_ms"
    CHAIN_LINKS = "gg.program.chain_links"
    SDK_CALLS = "gg.program.sdk_calls"
    FINISHED = "gg.program.finished"
    OK = "gg.call.ok"
    CODE = "gg.call.code"
    ORDINAL = "gg.call.ordinal"
    TRANSITION = "gg.transition.kind"
    TRANSITION_STATE = "gg.transition.state"
    LIBRARY_DISPOSITION = "gg.transfer.library.disposition"
    LIBRARY_HELD = "gg.transfer.library.held"
    LIBRARY_DROPPED = "gg.transfer.library.dropped"
    MODULE_KIND = "gg.module.kind"
    MODULE_ID = "gg.module.id"
    MODULE_SIZE = "gg.module.size"
    MEMORY_NAME = "gg.memory.name"
    MEMORY_REVISION = "gg.memory.revision"
    MEMORY_CHANGE = "gg.memory.change"
    MEMORY_BODY = "gg.memory.body"
    CEILING = "gg.ceiling.limit"
    CEILING_THRESHOLD = "gg.ceiling.threshold"
    CEILING_OBSERVED = "gg.ceiling.observed"
    MESSAGES_BEFORE = "gg.compaction.messages_before"
    MESSAGES_AFTER = "gg.compaction.messages_after"


def transfer_key(kind: str) -> str:
    """The attribute naming what a hand-over did to one module kind (`gg.transfer.memories`)."""
    return f"gg.transfer.{kind}"


class SpanEventName(StrEnum):
    """The span events gg records: a module written, a ceiling breached, a window compacted."""

    MODULE_WRITE = "gg.module.write"
    CEILING = "gg.ceiling"
    COMPACTION = "gg.compaction"


class ToolType(StrEnum):
    """`gen_ai.tool.type`: a program and an SDK call both run on gg's side of the model."""

    FUNCTION = "function"


class FinishReason(StrEnum):
    """A reply's finish reason, read from what gg kept of it: calls, or text alone."""

    TOOL_CALL = "tool_call"
    STOP = "stop"


@dataclass(frozen=True)
class Conventions:
    """Which version of the GenAI conventions' names to emit where versions differ."""

    latest: bool = False

    @property
    def provider(self) -> str:
        return GenAi.PROVIDER_NAME if self.latest else GenAi.SYSTEM

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> Conventions:
        """The latest names when `OTEL_SEMCONV_STABILITY_OPT_IN` lists `gen_ai_latest_experimental`."""
        wanted = {item.strip() for item in environ.get(OPT_IN_VARIABLE, "").split(",")}
        return cls(latest=LATEST_EXPERIMENTAL in wanted)
