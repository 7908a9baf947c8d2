"""Telemetry events: one frozen dataclass per event type, wire names declared once.

Every event on the wire carries `type` (snake_case), `timestamp` (ISO 8601, UTC), `runId`,
`agentId` (the root is `root`), `parentAgentId` (every agent but the root's first incarnation has
one) and `turn`, then its own fields in camelCase. Fields whose value is `None` are omitted, so
"absent" and "zero" stay different facts.

The agent tree's events: `agent_spawned` opens every instance (the root, each subagent, fork copy
and successor), `agent_modules` states its roster once, `fsm_state` the state it stands in when a
machine runs it; `agent_transition` (on the outgoing stream) records an exec, a fork or a machine's
move with what it did to each module kind; `agent_finished` closes an agent's last incarnation.
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


class TransitionKind(StrEnum):
    """How an agent made another (`agent_transition.kind`): an exec or a machine's move hands the
    session on, a fork starts a copy beside it."""

    EXEC = "exec"
    FORK = "fork"
    FSM = "fsm"


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
    """The messages appended to the window since the previous request, as the model reads them."""

    TYPE: ClassVar[EventType] = EventType.MODEL_REQUEST
    messages: list[dict[str, Any]]
    request_index: int


@dataclass(frozen=True, kw_only=True)
class ModelReply(Payload):
    TYPE: ClassVar[EventType] = EventType.MODEL_REPLY
    text: str
    calls: list[dict[str, Any]]
    usage: dict[str, Any]
    duration_ms: float
    cost_usd: float | None = None


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
class RunFinished(Payload):
    TYPE: ClassVar[EventType] = EventType.RUN_FINISHED
    status: str
    exit_code: int
    turns: int
    duration_ms: float
    final_text: str | None = None
    message: str | None = None
    summary: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class AgentSpawned(Payload):
    """An agent instance opens: the profile it runs, its model, its depth (the root at 0) and the
    brief it was given (a spawn's or fork's prompt, an exec's prompt, a machine move's note)."""

    TYPE: ClassVar[EventType] = EventType.AGENT_SPAWNED
    profile_id: str
    model_id: str
    depth: int
    brief: str | None = None


@dataclass(frozen=True, kw_only=True)
class AgentModules(Payload):
    """The instance's roster, once: one row per module kind, in kind order."""

    TYPE: ClassVar[EventType] = EventType.AGENT_MODULES
    modules: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class AgentTransition(Payload):
    """An exec, fork or machine move made `to_agent_id`, running `profile_id` (in `state`, for a
    machine); `modules` holds what it did to each kind (`{kind, disposition, from?, to?}`)."""

    TYPE: ClassVar[EventType] = EventType.AGENT_TRANSITION
    kind: str
    to_agent_id: str
    profile_id: str
    modules: list[dict[str, Any]]
    state: str | None = None


@dataclass(frozen=True, kw_only=True)
class FsmStateEntered(Payload):
    """The instance stands in `state` of machine `fsm_id`, run by `profile_id`; `from_state` (on
    the wire `from`) is the state it moved from, absent at the machine's entry."""

    TYPE: ClassVar[EventType] = EventType.FSM_STATE
    fsm_id: str
    state: str
    profile_id: str
    from_state: str | None = None

    def to_wire(self) -> dict[str, Any]:
        wire = wire_fields(self)
        if "fromState" in wire:
            wire["from"] = wire.pop("fromState")
        return wire


@dataclass(frozen=True, kw_only=True)
class AgentFinished(Payload):
    """An agent's last incarnation ended: how (a `SubagentResult` status) and its final word."""

    TYPE: ClassVar[EventType] = EventType.AGENT_FINISHED
    status: str
    summary: str | None = None


@dataclass(frozen=True, kw_only=True)
class SkillsState(Payload):
    """A skills module's snapshot: its catalogue, each skill marked read or not."""

    TYPE: ClassVar[EventType] = EventType.SKILLS_STATE
    module_id: str
    skills: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class MemoryState(Payload):
    """A memory store as one holder sees it: every memory (`{name, description, len, lines}`), the
    totals, the peaks held at once, the caps in force (`null` where none is), and the holder's
    declared scope and whether it may write. `moduleId` is the store's, not the holder's."""

    TYPE: ClassVar[EventType] = EventType.MEMORY_STATE
    module_id: str
    strategy: str
    memories: list[dict[str, Any]]
    count: int
    total_len: int
    total_lines: int
    peak: dict[str, int]
    caps: dict[str, int | None]
    scope: str
    writable: bool


@dataclass(frozen=True, kw_only=True)
class MemoryRevision(Payload):
    """One successful mutation of one memory, on the stream of the agent that made it: the text as
    of this revision (empty for a deletion)."""

    TYPE: ClassVar[EventType] = EventType.MEMORY_REVISION
    name: str
    revision: int
    change: str
    description: str
    body: str
    len: int
    lines: int


class ContextAction(StrEnum):
    """What an agent did to its own window (`context_managed.action`)."""

    ARCHIVE_THREAD = "archive_thread"
    EVICT_FILE_VIEW = "evict_file_view"


@dataclass(frozen=True, kw_only=True)
class TasksState(Payload):
    """A task list's snapshot: every task in the order added (`{id, title, description?, status,
    blockedBy, inScope?, outOfScope?, completionCriteria?}`), under the store's id."""

    TYPE: ClassVar[EventType] = EventType.TASKS_STATE
    module_id: str
    tasks: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class BoardState(Payload):
    """The run's board: its epics and its issues, in the order created, under the store's id."""

    TYPE: ClassVar[EventType] = EventType.BOARD_STATE
    module_id: str
    epics: list[dict[str, Any]]
    issues: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class ArchiveState(Payload):
    """A thread archive's snapshot: each entry's `{seq, source, role, len, preview}` (the first
    200 characters), how many it holds and their total length in characters."""

    TYPE: ClassVar[EventType] = EventType.ARCHIVE_STATE
    module_id: str
    entries: list[dict[str, Any]]
    count: int
    total_len: int


@dataclass(frozen=True, kw_only=True)
class ContextManaged(Payload):
    """An agent moved part of its own window out: what it did, how many messages left the window,
    the tokens that freed (as `detail` says, measured or estimated) and in words what happened."""

    TYPE: ClassVar[EventType] = EventType.CONTEXT_MANAGED
    action: str
    reclaimed_tokens: int
    items: int
    detail: str
    earliest_removed: int | None = None


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
