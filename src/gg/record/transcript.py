"""A run's events folded into a transcript: what `gg show RUN` prints. Pure.

Input is the wire records (`RunReader.events`, `read_events`, `CollectingSink.wire`), in emit order.
Rules:
- A turn is every event sharing `(agentId, turn)` with `turn >= 1`; turns keep the order in which
  they first appear. `run_started`, `run_finished` and events with turn 0 belong to the run.
- A turn's `read` is its `model_request` messages. An assistant message or a receipt repeating the
  previous turn's reply is marked `echo` (already shown as that turn's reply and receipts).
- A program is one `code_execution`; it is matched to its call by program id through the
  receipts, else by its executed `source`, else to the next unmatched call carrying a program. Its
  source is the call's `program` argument, else the executed `source` on the event.
  `api_call`/`api_result` pairs seen before a `code_execution` belong to that program.
- A submission that handed over runs a chain: its `links` are each program's own source and
  verdict, in the order they ran (from `code_execution.links`).
- A turn's tokens are its `model_reply` usage; its cost and the run's totals of tokens, cost,
  programs (submitted, failed, cut short) and error turns are read by `gg.record.tally`.
- A hook run (`hook_run`) belongs to its turn; one before any turn (turn 0) to the run.
- Totals: turns and duration from `run_finished` when there is one, else counted from the events.
- The agents: every instance the events name, in tree order (the one agent tree of a run:
  `gg.record.agents`), each with how it came to be, its profile, depth, brief and end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gg.record.agents import RecordedInstance, fold_agents
from gg.record.envelope import Record, records_of
from gg.record.records import (
    ApiRecord,
    HookRecord,
    LimitRecord,
    OperatorLog,
    Outcome,
    RecordedCall,
    RecordedMessage,
    RecordedProgram,
    dict_of,
    float_of,
    int_of,
    list_of,
    read_call,
    read_hook,
    read_limit,
    read_log,
    read_message,
    read_outcome,
    read_program,
)
from gg.record.runs import INTERRUPTED, TIMED_OUT, UNFINISHED
from gg.record.tally import TokenCounts, reply_cost, submitted, tally, token_counts
from gg.telemetry.clock import parse_timestamp
from gg.telemetry.events import EventType
from gg.wire import terminal_safe

RUN_LEVEL = frozenset({EventType.RUN_STARTED.value, EventType.RUN_FINISHED.value})


@dataclass(frozen=True)
class Turn:
    """One turn of one agent. `outcome` is None when the turn never closed (the run was killed)."""

    agent_id: str
    number: int
    started_at: str
    read: tuple[RecordedMessage, ...] = ()
    reply_text: str = ""
    calls: tuple[RecordedCall, ...] = ()
    programs: tuple[RecordedProgram, ...] = ()
    logs: tuple[OperatorLog, ...] = ()
    outcome: Outcome | None = None
    limits: tuple[LimitRecord, ...] = ()
    hooks: tuple[HookRecord, ...] = ()
    usage: dict[str, Any] = field(default_factory=dict[str, Any])
    reply_ms: float | None = None
    cost_usd: float | None = None

    @property
    def tokens(self) -> TokenCounts:
        return token_counts(self.usage)

    @property
    def submitted(self) -> int:
        """The programs this turn submitted, as the run's tally counts them (`tally.submitted`)."""
        carried = sum(1 for call in self.calls if call.program is not None)
        return submitted(len(self.programs), carried, closed=self.outcome is not None)

    @property
    def cut_short(self) -> tuple[RecordedCall, ...]:
        """The calls whose program the run stopped before it reported: in a turn that never
        closed, each call carrying a program that has no run."""
        if self.outcome is not None:
            return ()
        ran = {program.call_id for program in self.programs}
        return tuple(call for call in self.calls if call.program is not None and call.call_id not in ran)


@dataclass(frozen=True)
class Totals:
    turns: int
    duration_ms: float | None
    input_tokens: int
    output_tokens: int
    cost: float | None
    programs: int  # every program submitted: those that reported and those cut short
    failed_programs: int
    error_turns: int
    cache_read_tokens: int | None = None  # None: no reply reported its cache reads
    cache_write_tokens: int = 0
    unpriced: int = 0  # replies whose cost is not known
    cut_programs: int = 0  # programs the run stopped before they reported


@dataclass(frozen=True)
class Transcript:
    """A whole run. `status` is None while the run has no `run_finished` (running or killed)."""

    run_id: str
    started_at: str
    turns: tuple[Turn, ...]
    totals: Totals
    name: str = ""
    model: str = ""
    config_path: str = ""
    language: str = ""
    workspace: str = ""
    logs: tuple[OperatorLog, ...] = ()
    limits: tuple[LimitRecord, ...] = ()
    hooks: tuple[HookRecord, ...] = ()  # those run before any turn (session-start, agent-start)
    status: str | None = None
    exit_code: int | None = None
    final_text: str | None = None
    message: str | None = None
    agents: tuple[RecordedInstance, ...] = ()

    @property
    def cut_word(self) -> str:
        """What a turn that never closed reads as: `interrupted` in a run the operator
        interrupted, `timed_out` in one whose time ran out, `unfinished` otherwise."""
        return self.status if self.status in (INTERRUPTED, TIMED_OUT) else UNFINISHED


@dataclass
class _Draft:
    """A turn while its events are folded in."""

    turn: Turn
    calls: list[RecordedCall] = field(default_factory=list[RecordedCall])
    programs: list[RecordedProgram] = field(default_factory=list[RecordedProgram])
    logs: list[OperatorLog] = field(default_factory=list[OperatorLog])
    limits: list[LimitRecord] = field(default_factory=list[LimitRecord])
    hooks: list[HookRecord] = field(default_factory=list[HookRecord])
    pending_api: list[ApiRecord] = field(default_factory=list[ApiRecord])


def fold_transcript(records: Iterable[Mapping[str, Any]], *, for_terminal: bool = True) -> Transcript:
    """Fold a run's wire records into its transcript; `for_terminal`, every text made safe to
    print on a terminal (else kept exactly as recorded)."""
    if for_terminal:
        records = (terminal_safe(record) for record in records)
    read = list(records_of(records))
    drafts: dict[tuple[str, int], _Draft] = {}
    run_logs: list[OperatorLog] = []
    run_hooks: list[HookRecord] = []
    for record in read:
        if record.type in RUN_LEVEL or record.turn < 1:
            if record.type == EventType.LOG.value:
                run_logs.append(read_log(record))
            elif record.type == EventType.HOOK_RUN.value:
                run_hooks.append(read_hook(record))
            continue
        key = (record.agent_id, record.turn)
        if key not in drafts:
            drafts[key] = _Draft(Turn(record.agent_id, record.turn, record.timestamp))
        _fold_event(drafts[key], record.type, record)
    turns = _mark_echoes([_freeze(draft) for draft in drafts.values()])
    return replace(_transcript(read, turns, run_logs), hooks=tuple(run_hooks))


def _fold_event(draft: _Draft, kind: str, record: Mapping[str, Any]) -> None:
    turn = draft.turn
    if kind == EventType.MODEL_REQUEST.value:
        read = tuple(read_message(m) for m in list_of(record.get("messages")))
        draft.turn = replace(turn, read=turn.read + read)
    elif kind == EventType.MODEL_REPLY.value:
        draft.calls.extend(read_call(raw) for raw in list_of(record.get("calls")))
        draft.turn = replace(
            turn,
            reply_text=str(record.get("text") or ""),
            usage=dict_of(record.get("usage")),
            reply_ms=float_of(record.get("durationMs")),
            cost_usd=reply_cost(record),
        )
    elif kind == EventType.RECEIPT.value:
        _attach_receipt(draft, record)
    elif kind == EventType.API_CALL.value:
        draft.pending_api.append(ApiRecord(str(record.get("operation", "")), int_of(record.get("ordinal"))))
    elif kind == EventType.API_RESULT.value:
        _close_api(draft, record)
    elif kind == EventType.CODE_EXECUTION.value:
        draft.programs.append(replace(read_program(record), api=tuple(draft.pending_api)))
        draft.pending_api = []
    elif kind == EventType.LOG.value:
        draft.logs.append(read_log(record))
    elif kind == EventType.TURN_OUTCOME.value:
        draft.turn = replace(turn, outcome=read_outcome(record))
    elif kind == EventType.LIMIT_EXCEEDED.value:
        draft.limits.append(read_limit(record))
    elif kind == EventType.HOOK_RUN.value:
        draft.hooks.append(read_hook(record))


def _attach_receipt(draft: _Draft, record: Mapping[str, Any]) -> None:
    call_id = str(record.get("callId", ""))
    body, program_id = record.get("body"), record.get("programId")
    for index, call in enumerate(draft.calls):
        if call.call_id == call_id and call.receipt is None:
            draft.calls[index] = replace(call, receipt=body, program_id=program_id)
            return
    tool = str(record.get("tool", ""))
    draft.calls.append(RecordedCall(call_id, tool, {}, receipt=body, program_id=program_id))


def _close_api(draft: _Draft, record: Mapping[str, Any]) -> None:
    operation, ordinal = str(record.get("operation", "")), int_of(record.get("ordinal"))
    ok, failure = bool(record.get("ok")), record.get("failure")
    for index in range(len(draft.pending_api) - 1, -1, -1):
        pending = draft.pending_api[index]
        if pending.operation == operation and pending.ordinal == ordinal and pending.ok is None:
            draft.pending_api[index] = replace(pending, ok=ok, failure=failure)
            return
    draft.pending_api.append(ApiRecord(operation, ordinal, ok, failure))


def _freeze(draft: _Draft) -> Turn:
    programs = _match_programs(draft.calls, draft.programs)
    return replace(
        draft.turn,
        calls=tuple(draft.calls),
        programs=programs,
        logs=tuple(draft.logs),
        limits=tuple(draft.limits),
        hooks=tuple(draft.hooks),
    )


def _match_programs(
    calls: Sequence[RecordedCall], programs: Sequence[RecordedProgram]
) -> tuple[RecordedProgram, ...]:
    """Give each program its call: by program id, by source, else the next call carrying a program."""
    unmatched = [call for call in calls if call.program]
    matched: list[RecordedProgram] = []
    for program in programs:
        call = _call_for(program, unmatched)
        if call is None:
            matched.append(program)
            continue
        unmatched.remove(call)
        source = call.program if call.program is not None else program.source
        program_id = program.program_id or call.program_id
        matched.append(replace(program, call_id=call.call_id, program_id=program_id, source=source))
    return tuple(matched)


def _call_for(program: RecordedProgram, candidates: Sequence[RecordedCall]) -> RecordedCall | None:
    by_id = [c for c in candidates if program.program_id and c.program_id == program.program_id]
    by_source = [c for c in candidates if program.source is not None and c.program == program.source]
    return next(iter(by_id or by_source or candidates), None)


def _mark_echoes(turns: list[Turn]) -> tuple[Turn, ...]:
    previous: dict[str, Turn] = {}
    marked: list[Turn] = []
    for turn in turns:
        before = previous.get(turn.agent_id)
        if before is not None:
            turn = replace(turn, read=tuple(replace(m, echo=_is_echo(m, before)) for m in turn.read))
        previous[turn.agent_id] = turn
        marked.append(turn)
    return tuple(marked)


def _is_echo(message: RecordedMessage, before: Turn) -> bool:
    if message.role == "assistant":
        return True
    if message.role != "tool":
        return False
    return any(c.call_id == message.tool_call_id and c.receipt == message.content for c in before.calls)


def _transcript(records: list[Record], turns: tuple[Turn, ...], logs: list[OperatorLog]) -> Transcript:
    started = _first(records, EventType.RUN_STARTED.value)
    finished = _first(records, EventType.RUN_FINISHED.value)
    head = records[0] if records else Record({})
    return Transcript(
        run_id=head.run_id,
        started_at=started.timestamp or head.timestamp,
        turns=turns,
        totals=_totals(records, turns, finished),
        logs=tuple(logs),
        name=str(started.get("name", "")),
        model=str(started.get("model", "")),
        config_path=str(started.get("configPath", "")),
        language=str(started.get("language", "")),
        workspace=str(started.get("workspace", "")),
        limits=tuple(limit for turn in turns for limit in turn.limits),
        status=finished.get("status"),
        exit_code=finished.get("exitCode"),
        final_text=finished.get("finalText"),
        message=finished.get("message"),
        agents=tuple(fold_agents(records, finished.get("status")).ordered()),
    )


def _totals(records: list[Record], turns: tuple[Turn, ...], finished: Record) -> Totals:
    spent = tally(records)
    return Totals(
        turns=int_of(finished["turns"]) if "turns" in finished else len(turns),
        duration_ms=float_of(finished.get("durationMs")) or _span_ms(records),
        input_tokens=spent.tokens.input,
        output_tokens=spent.tokens.output,
        cost=spent.cost_usd,
        programs=spent.programs,
        failed_programs=spent.failed_programs,
        error_turns=spent.error_turns,
        cache_read_tokens=spent.tokens.cache_read,
        cache_write_tokens=spent.tokens.cache_write,
        unpriced=spent.unpriced,
        cut_programs=spent.cut_programs,
    )


def _first(records: Sequence[Record], kind: str) -> Record:
    """The first record of type `kind`; an empty one when there is none."""
    return next((r for r in records if r.type == kind), Record({}))


def _span_ms(records: Sequence[Record]) -> float | None:
    moments = [m for r in records if (m := parse_timestamp(r.timestamp)) is not None]
    return (max(moments) - min(moments)).total_seconds() * 1000 if moments else None
