"""What a run spent, how many programs it submitted, how often its turns failed and which models
answered it, counted from its events. Pure.

Rules (the one reading, shared by `gg runs`, `gg show` and the console's Runs page and run header):
- Tokens are summed over every `model_reply` usage; `input` counts every prompt token, cache reads
  and writes included. A usage is read in any common spelling (`inputTokens`, `prompt_tokens`, ...).
  Cache reads no reply reported are unknown (`None`), not zero; the sum is of the reported ones.
- A reply's cost is its `costUsd`, else a cost inside its usage, else unknown. The run's cost is the
  sum of the known ones (`None` when none is known); `unpriced` counts the replies whose cost is not.
- A turn is every event sharing `(agentId, turn)`. The programs it submitted are each that ran
  (`code_execution`), and, in a turn that never closed (no `turn_outcome`: the run stopped it),
  each program its reply carried that never ran (cut short): `submitted`. Failed programs are
  those that ran and failed; a program cut short is neither run nor failed.
- Error turns are the `turn_outcome`s whose outcome is `error`: the model's program or reply
  failed. A turn the run's end cut short records no outcome, so it is never an error turn.
- The models are every `agent_spawned` model id, each once, in the order the agents opened (the
  root's first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gg.record.envelope import records_of
from gg.record.records import list_of, read_call
from gg.telemetry.events import EventType, UsageKey

TALLIED = (
    EventType.MODEL_REPLY.value,
    EventType.CODE_EXECUTION.value,
    EventType.TURN_OUTCOME.value,
    EventType.AGENT_SPAWNED.value,
)
ERROR_OUTCOME = "error"
# Each count by its wire name (`UsageKey`), then the spellings other records use.
_INPUT_KEYS = (UsageKey.INPUT, "input_tokens", "promptTokens", "prompt_tokens")
_OUTPUT_KEYS = (UsageKey.OUTPUT, "output_tokens", "completionTokens", "completion_tokens")
_CACHE_READ_KEYS = (UsageKey.CACHE_READ, "cache_read_tokens")
_CACHE_WRITE_KEYS = (UsageKey.CACHE_WRITE, "cache_write_tokens")
_COST_KEYS = ("cost", "costUsd", "cost_usd")


@dataclass(frozen=True)
class TokenCounts:
    """Tokens of one reply or a run: `input` counts every prompt token, cache reads and writes
    included."""

    input: int = 0
    output: int = 0
    cache_read: int | None = None  # None: not reported
    cache_write: int = 0


@dataclass(frozen=True)
class Tally:
    tokens: TokenCounts
    cost_usd: float | None  # None: no reply's cost is known
    unpriced: int  # replies whose cost is not known
    error_turns: int
    programs: int = 0  # every program submitted: those that ran and those cut short
    failed_programs: int = 0
    cut_programs: int = 0  # programs the run stopped before they ran to an end
    models: tuple[str, ...] = ()  # every model an agent was answered by, the root's first


@dataclass
class _TurnCount:
    ran: int = 0
    failed: int = 0
    carried: int = 0  # calls of its reply that carry a program
    closed: bool = False
    error: int = 0  # outcomes `error` (one, in a turn that closed once)


def submitted(ran: int, carried: int, *, closed: bool) -> int:
    """The programs a turn submitted: each that ran; in a turn that never closed, also each
    program its reply carried that never ran."""
    return ran if closed else max(ran, carried)


def number_in(usage: Mapping[str, Any], keys: Sequence[str]) -> float | None:
    for key in keys:
        value = usage.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def token_counts(usage: Mapping[str, Any]) -> TokenCounts:
    return TokenCounts(
        input=int(number_in(usage, _INPUT_KEYS) or 0),
        output=int(number_in(usage, _OUTPUT_KEYS) or 0),
        cache_read=None if (read := number_in(usage, _CACHE_READ_KEYS)) is None else int(read),
        cache_write=int(number_in(usage, _CACHE_WRITE_KEYS) or 0),
    )


def reply_cost(reply: Mapping[str, Any]) -> float | None:
    """What one `model_reply` cost: its `costUsd`, else a cost inside its usage, else unknown."""
    usage = reply.get("usage")
    inner = number_in(usage, _COST_KEYS) if isinstance(usage, Mapping) else None
    own = number_in(reply, ("costUsd",))
    return own if own is not None else inner


def summed(counts: Iterable[TokenCounts]) -> TokenCounts:
    total = TokenCounts()
    for c in counts:
        total = TokenCounts(
            total.input + c.input,
            total.output + c.output,
            _known_sum(total.cache_read, c.cache_read),
            total.cache_write + c.cache_write,
        )
    return total


def _known_sum(a: int | None, b: int | None) -> int | None:
    return a if b is None else (b if a is None else a + b)


def tally(records: Iterable[Mapping[str, Any]]) -> Tally:
    """The tally of a run's wire records (any of its events; the others are passed over)."""
    replies: list[Mapping[str, Any]] = []
    turns: dict[tuple[str, int], _TurnCount] = {}
    models: dict[str, None] = {}
    for record in records_of(records):
        kind = record.type
        if kind not in TALLIED:
            continue
        if kind == EventType.AGENT_SPAWNED.value:
            if isinstance(model := record.get("modelId"), str):
                models[model] = None
            continue
        if kind == EventType.MODEL_REPLY.value:
            replies.append(record)
        key = (record.agent_id, record.turn)
        _count(turns.setdefault(key, _TurnCount()), kind, record)
    costs = [cost for r in replies if (cost := reply_cost(r)) is not None]
    programs = sum(submitted(t.ran, t.carried, closed=t.closed) for t in turns.values())
    return Tally(
        tokens=summed(token_counts(u) for r in replies if isinstance(u := r.get("usage"), Mapping)),
        cost_usd=sum(costs) if costs else None,
        unpriced=len(replies) - len(costs),
        error_turns=sum(t.error for t in turns.values()),
        programs=programs,
        failed_programs=sum(t.failed for t in turns.values()),
        cut_programs=programs - sum(t.ran for t in turns.values()),
        models=tuple(models),
    )


def _count(turn: _TurnCount, kind: str, record: Mapping[str, Any]) -> None:
    if kind == EventType.MODEL_REPLY.value:
        turn.carried += sum(1 for raw in list_of(record.get("calls")) if read_call(raw).program is not None)
    elif kind == EventType.CODE_EXECUTION.value:
        turn.ran += 1
        turn.failed += not record.get("ok")
    else:
        turn.closed = True
        turn.error += record.get("outcome") == ERROR_OUTCOME
