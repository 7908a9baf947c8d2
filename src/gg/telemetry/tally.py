"""What a run spent, how often its turns failed and which models answered it, counted from its
events. Pure.

Rules (the one reading, shared by `gg runs` and `gg show`):
- Tokens are summed over every `model_reply` usage; `input` counts every prompt token, cache reads
  and writes included. A usage is read in any common spelling (`inputTokens`, `prompt_tokens`, ...).
  Cache reads no reply reported are unknown (`None`), not zero; the sum is of the reported ones.
- A reply's cost is its `costUsd`, else a cost inside its usage, else unknown. The run's cost is the
  sum of the known ones (`None` when none is known); `unpriced` counts the replies whose cost is not.
- Error turns are the `turn_outcome`s whose outcome is `error`.
- The models are every `agent_spawned` model id, each once, in the order the agents opened (the
  root's first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gg.telemetry.events import EventType

TALLIED = (EventType.MODEL_REPLY.value, EventType.TURN_OUTCOME.value, EventType.AGENT_SPAWNED.value)
ERROR_OUTCOME = "error"
_INPUT_KEYS = ("inputTokens", "input_tokens", "promptTokens", "prompt_tokens")
_OUTPUT_KEYS = ("outputTokens", "output_tokens", "completionTokens", "completion_tokens")
_CACHE_READ_KEYS = ("cacheReadTokens", "cache_read_tokens")
_CACHE_WRITE_KEYS = ("cacheWriteTokens", "cache_write_tokens")
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
    models: tuple[str, ...] = ()  # every model an agent was answered by, the root's first


def number_in(usage: Mapping[str, Any], keys: Sequence[str]) -> float | None:
    return next((float(usage[k]) for k in keys if _is_number(usage.get(k))), None)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


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
    errors = 0
    models: dict[str, None] = {}
    for record in records:
        kind = record.get("type")
        if kind == EventType.MODEL_REPLY.value:
            replies.append(record)
        elif kind == EventType.TURN_OUTCOME.value and record.get("outcome") == ERROR_OUTCOME:
            errors += 1
        elif kind == EventType.AGENT_SPAWNED.value and isinstance(model := record.get("modelId"), str):
            models[model] = None
    usages = [r.get("usage") for r in replies]
    costs = [cost for r in replies if (cost := reply_cost(r)) is not None]
    return Tally(
        tokens=summed(token_counts(u) for u in usages if isinstance(u, Mapping)),
        cost_usd=sum(costs) if costs else None,
        unpriced=len(replies) - len(costs),
        error_turns=errors,
        models=tuple(models),
    )
