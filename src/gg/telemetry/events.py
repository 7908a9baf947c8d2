"""Telemetry events: one frozen dataclass per event type, wire names declared once.

Every event on the wire carries `type` (snake_case), `timestamp` (ISO 8601, UTC), `runId`,
`agentId` (the root is `root`), `parentAgentId` (every agent but the root's first incarnation has
one) and `turn`, then its own fields in camelCase. Fields whose value is `None` are omitted, so
"absent" and "zero" stay different facts.

Every event type is declared here (`EventType`); the run's and the turn's payloads live here too,
the agent tree's in `gg.telemetry.agent_events` and the modules' in `gg.telemetry.module_events`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar

from gg.wire import camel


class EventType(StrEnum):
    RUN_STARTED = "run_started"
    MODEL_REQUEST = "model_request"
    MODEL_REPLY = "model_reply"
    RECEIPT = "receipt"
    API_CALL = "api_call"
    API_RESULT = "api_result"
    CODE_EXECUTION = "code_execution"
    TURN_OUTCOME = "turn_outcome"
    LIMIT_EXCEEDED = "limit_exceeded"
    LOG = "log"
    PROGRAM_KEPT = "program_kept"
    PROGRAM_DROPPED = "program_dropped"
    PROGRAM_LOG = "program_log"
    COMPACTION = "compaction"
    RUN_FINISHED = "run_finished"
    AGENT_SPAWNED = "agent_spawned"
    AGENT_MODULES = "agent_modules"
    AGENT_TRANSITION = "agent_transition"
    AGENT_FINISHED = "agent_finished"
    FSM_STATE = "fsm_state"
    SKILLS_STATE = "skills_state"
    MEMORY_STATE = "memory_state"
    MEMORY_REVISION = "memory_revision"
    TASKS_STATE = "tasks_state"
    BOARD_STATE = "board_state"
    ARCHIVE_STATE = "archive_state"
    CONTEXT_MANAGED = "context_managed"
    CONTEXT_BREAKDOWN = "context_breakdown"
    HOOK_RUN = "hook_run"


class LogLevel(StrEnum):
    DEBUG = "debug"
    INFO = "info"
    WARN = "warn"
    ERROR = "error"


@dataclass(frozen=True, kw_only=True)
class Payload:
    """The event-specific part; the envelope (`Event`) adds who, when and which turn."""

    TYPE: ClassVar[EventType]

    def to_wire(self) -> dict[str, Any]:
        return wire_fields(self)


def wire_fields(value: Any) -> dict[str, Any]:
    """A dataclass's fields by their camelCase wire names, those whose value is None left out."""
    out: dict[str, Any] = {}
    for f in fields(value):
        item = getattr(value, f.name)
        if item is not None:
            out[camel(f.name)] = item
    return out


@dataclass(frozen=True, kw_only=True)
class RunStarted(Payload):
    TYPE: ClassVar[EventType] = EventType.RUN_STARTED
    name: str
    config_path: str
    workspace: str
    model: str
    language: str
    limits: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class ModelRequest(Payload):
    """The messages appended to the window since the previous request, as the model reads them,
    and the tool choice the request is sent on (`pinned` or `auto`; absent for a model that is
    sent none: replayed, scripted). A pin the provider refuses is sent again on `auto` within the
    same request; a `warn` log says so."""

    TYPE: ClassVar[EventType] = EventType.MODEL_REQUEST
    messages: list[dict[str, Any]]
    request_index: int
    tool_choice: str | None = None


@dataclass(frozen=True, kw_only=True)
class ReplyCall:
    """One call of a `model_reply`: `arguments` is their parsed value (`null` for text that is not
    JSON), `raw_arguments` the text the provider sent (`null` when it sent an object). Every key
    is written, null or not."""

    id: str
    name: str
    arguments: Any
    raw_arguments: str | None

    def to_wire(self) -> dict[str, Any]:
        return {camel(f.name): getattr(self, f.name) for f in fields(self)}


class UsageKey(StrEnum):
    """How a reply's usage is spelled on the wire, one name per count: a `model_reply`'s `usage`,
    a journal line's, a run's summary and the JSON documents of `gg runs` and `gg show`.
    `inputTokens` counts every prompt token, cache reads and writes included."""

    INPUT = "inputTokens"
    OUTPUT = "outputTokens"
    CACHE_READ = "cacheReadTokens"
    CACHE_WRITE = "cacheWriteTokens"
    CACHE_WRITE_1H = "cacheWrite1hTokens"


@dataclass(frozen=True, kw_only=True)
class ModelReply(Payload):
    """A model's answer; `response_model` is the model the server says answered (absent when it
    named none: a replayed or scripted model), whatever model was asked for."""

    TYPE: ClassVar[EventType] = EventType.MODEL_REPLY
    text: str
    calls: list[dict[str, Any]]
    usage: dict[str, Any]
    duration_ms: float
    cost_usd: float | None = None
    response_model: str | None = None


@dataclass(frozen=True, kw_only=True)
class Receipt(Payload):
    """The acknowledgement pushed for one call, before anything ran."""

    TYPE: ClassVar[EventType] = EventType.RECEIPT
    call_id: str
    tool: str
    body: str
    program_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class ApiCall(Payload):
    TYPE: ClassVar[EventType] = EventType.API_CALL
    operation: str
    ordinal: int


@dataclass(frozen=True, kw_only=True)
class ApiResult(Payload):
    TYPE: ClassVar[EventType] = EventType.API_RESULT
    operation: str
    ordinal: int
    ok: bool
    failure: str | None = None


@dataclass(frozen=True, kw_only=True)
class ChainLink:
    """One program of a hand-over chain, in `code_execution.links`: its own source and verdict."""

    source: str
    ok: bool
    duration_ms: float
    api_calls: int
    error_type: str | None = None
    error: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return wire_fields(self)


@dataclass(frozen=True, kw_only=True)
class CodeExecution(Payload):
    """One submission's program, or its whole hand-over chain: `source` and the verdict are the
    last program's; `links` (only when it handed over) holds every program, in the order run."""

    TYPE: ClassVar[EventType] = EventType.CODE_EXECUTION
    submission: int
    ok: bool
    tool_calls: int
    api_calls: int
    duration_ms: float
    logs: list[str]
    logs_suppressed: int | None = None
    error: str | None = None
    error_type: str | None = None
    finished: str | None = None
    compile_ms: float | None = None
    program_id: str | None = None
    source: str | None = None
    programs: int | None = None
    links: list[dict[str, Any]] | None = None
    calls_refused: int | None = None  # SDK calls refused past the per-program cap, not recorded


@dataclass(frozen=True, kw_only=True)
class TurnOutcomeEvent(Payload):
    TYPE: ClassVar[EventType] = EventType.TURN_OUTCOME
    outcome: str
    consecutive_errors: int
    turns: int
    error: str | None = None
    error_type: str | None = None
    report: str | None = None
    feedback: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class LimitExceeded(Payload):
    TYPE: ClassVar[EventType] = EventType.LIMIT_EXCEEDED
    limit: str
    threshold: float
    observed: float
    turns: int
    window: int | None = None


@dataclass(frozen=True, kw_only=True)
class Log(Payload):
    """A record for the operator: never shown to the model."""

    TYPE: ClassVar[EventType] = EventType.LOG
    level: str
    message: str
    fields: dict[str, Any] = field(default_factory=dict[str, Any])


@dataclass(frozen=True, kw_only=True)
class ProgramKept(Payload):
    """A library entry recorded, or its source replaced by a hand-over."""

    TYPE: ClassVar[EventType] = EventType.PROGRAM_KEPT
    program_id: str
    lines: int
    chars: int
    ok: bool
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class ProgramDropped(Payload):
    """A library entry retention let go of; its id is never issued again."""

    TYPE: ClassVar[EventType] = EventType.PROGRAM_DROPPED
    program_id: str


@dataclass(frozen=True, kw_only=True)
class ProgramLog(Payload):
    """Lines a running program logged, as they came (the first of each program, up to a budget);
    `dropped` lines before them were never streamed. Its `code_execution` keeps the tail."""

    TYPE: ClassVar[EventType] = EventType.PROGRAM_LOG
    lines: list[str]
    dropped: int | None = None


@dataclass(frozen=True, kw_only=True)
class CompactionApplied(Payload):
    """The window restarted from a summary at the close of a turn."""

    TYPE: ClassVar[EventType] = EventType.COMPACTION
    summary: str
    files: list[str]
    messages_before: int
    messages_after: int


@dataclass(frozen=True, kw_only=True)
class HookRun(Payload):
    """One hook run (`gg.config.hooks`): its event, its label, what it answered (`continue`,
    `block`, `message`, or `failed` when it judged nothing, with `error` saying why) and how long
    it took. `message` is what it said, when it said anything."""

    TYPE: ClassVar[EventType] = EventType.HOOK_RUN
    event: str
    hook: str
    action: str
    duration_ms: float
    message: str | None = None
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class RunFinished(Payload):
    TYPE: ClassVar[EventType] = EventType.RUN_FINISHED
    status: str
    exit_code: int
    turns: int
    duration_ms: float
    final_text: str | None = None
    message: str | None = None
    summary: dict[str, Any] | None = None


@dataclass(frozen=True)
class Event:
    """One record on the run's stream: the envelope plus its payload."""

    run_id: str
    agent_id: str
    turn: int
    timestamp: str
    payload: Payload
    parent_agent_id: str | None = None

    @property
    def type(self) -> EventType:
        return self.payload.TYPE

    def to_wire(self) -> dict[str, Any]:
        parent = {} if self.parent_agent_id is None else {"parentAgentId": self.parent_agent_id}
        return {
            "type": self.type.value,
            "timestamp": self.timestamp,
            "runId": self.run_id,
            "agentId": self.agent_id,
            **parent,
            "turn": self.turn,
            **self.payload.to_wire(),
        }
