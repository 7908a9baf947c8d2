"""What the loop hands a model and what it gets back, whatever the provider.

- A `Request` is the system prompt, the window's messages and the one tool, `submit_program`;
  its messages are never changed once it is made.
- A `Reply` is the assistant's text, its tool calls exactly as received, and the tokens spent.
- A `ModelError` is raised once a provider's own retries are spent; its `ErrorType` is read from
  the one failure table (`providers/failures.py`).
- `ModelClient` is the protocol every provider implements: `model_id` and `complete(request)`.

A call's `arguments` is a dict when the provider's text reads as a JSON object and that text
otherwise; it is read leniently (a raw newline or tab inside a string is taken as itself, as the
servers' own grammars let a model write one) and never repaired beyond that. `raw_arguments`
keeps the text as the provider sent it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from gg import prompts
from gg.outcome import ErrorType
from gg.telemetry.events import UsageKey
from gg.wire import lenient_value

Role = Literal["system", "user", "assistant", "tool"]

SUBMIT_PROGRAM = "submit_program"

LogFn = Callable[[str, str, dict[str, Any]], None]
"""An operator line: `log(level, message, fields)`; `level` is a `LogLevel` value."""


@dataclass(frozen=True)
class ToolCall:
    """One call of a reply. `arguments` is what gg acts on and sends back (`parse_arguments`);
    `raw_arguments` is the text the provider sent, `None` when it sent an object."""

    id: str
    name: str
    arguments: str | dict[str, Any]
    raw_arguments: str | None = None


def parse_arguments(raw: str) -> str | dict[str, Any]:
    """A dict when `raw` reads (leniently) as a JSON object, else `raw` itself."""
    value = arguments_value(raw)
    return value if isinstance(value, dict) else raw


def arguments_value(arguments: str | dict[str, Any]) -> Any:
    """The arguments as a JSON value: an object as it is, a text read leniently (`[1, 2]`,
    `null`, `"x"` are values too); `None` for a text that is not JSON."""
    return arguments if isinstance(arguments, dict) else lenient_value(arguments)


@dataclass(frozen=True)
class Message:
    role: Role
    content: str
    tool_call_id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class Usage:
    """Tokens one model call spent. `input_tokens` counts every prompt token, cached ones
    included; `cache_read_tokens` says how many of those were read from the provider's cache
    (`None` when the provider reported nothing of it: unknown, not zero) and
    `cache_write_tokens` how many were written to it, of which `cache_write_1h_tokens` were
    written for one hour (the rest for the provider's default lifetime)."""

    input_tokens: int
    output_tokens: int
    cache_read_tokens: int | None = None
    cache_write_tokens: int = 0
    cache_write_1h_tokens: int = 0

    def to_wire(self) -> dict[str, int | None]:
        """Every count by its wire name (`USAGE_FIELDS`), an unreported cache read `None`."""
        return {key.value: getattr(self, name) for key, name in USAGE_FIELDS.items()}


MOST_TOKENS = 2**53 - 1  # the largest whole number JSON holds exactly: no count gg keeps is larger


def reported_count(value: object) -> int | None:
    """A token count a provider reported: a whole number from 0 to `MOST_TOKENS`; `None` for
    anything else (none reported, or none gg could keep and sum)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MOST_TOKENS:
        return value
    return None


USAGE_FIELDS: dict[UsageKey, str] = {
    UsageKey.INPUT: "input_tokens",
    UsageKey.OUTPUT: "output_tokens",
    UsageKey.CACHE_READ: "cache_read_tokens",
    UsageKey.CACHE_WRITE: "cache_write_tokens",
    UsageKey.CACHE_WRITE_1H: "cache_write_1h_tokens",
}
"""Each usage count's wire name, and the `Usage` field that holds it."""


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Request:
    """One model call. `volatile_tail` says the last message is re-rendered on every request (a
    status slot), so no provider should mark it as a cache point."""

    system: str
    messages: Sequence[Message]  # a tuple, or the window's `SentMessages`
    tool: ToolSpec
    max_output_tokens: int | None = None
    temperature: float | None = None
    volatile_tail: bool = False


@dataclass(frozen=True)
class Reply:
    """One model answer. `cost_usd` is what it cost in US dollars, `None` when the model's price
    is unknown (never a guess; see `pricing.py`). `receipts_hint` is set only by a replayed reply
    whose journal line recorded the receipt each call received in the run it was captured from
    (one entry per call, `None` where unknown). `response_model` is the model the server named in
    its answer (`None` when it named none), whatever was asked for."""

    text: str
    calls: tuple[ToolCall, ...]
    usage: Usage
    model: str
    receipts_hint: tuple[str | None, ...] | None = field(default=None)
    cost_usd: float | None = None
    response_model: str | None = None


class ModelError(Exception):
    """The model call failed for good. `usage` is set when the provider answered and charged
    tokens for an answer gg cannot use (a reply cut off by its length cap); `cost_usd` is then
    what those tokens cost (`None` when unpriced or nothing was charged)."""

    def __init__(
        self,
        type: ErrorType,
        message: str,
        *,
        usage: Usage | None = None,
        cost_usd: float | None = None,
    ) -> None:
        super().__init__(f"{type.value}: {message}")
        self.type = type
        self.message = message
        self.usage = usage
        self.cost_usd = cost_usd


class ModelClient(Protocol):
    """One model behind one provider. `model_id` is `<provider>:<model>` or `replay`.

    Any object with these two members is a model (`gg.run(config, model=...)`), so a model can be
    scripted in Python. `complete` is called once per turn with the `Request` (the system prompt,
    the window's messages, the one tool `submit_program`) and returns a `Reply`: the text, the
    tool calls (`ToolCall(id, "submit_program", {"program": source})`, ids unique in the reply),
    the `Usage` it spent, the model's name and, when known, its cost in US dollars. A model that
    cannot answer raises `ModelError`; anything else it raises ends the run `internal_error`."""

    @property
    def model_id(self) -> str: ...

    def complete(self, request: Request) -> Reply: ...


def submit_program_tool(language_display_name: str) -> ToolSpec:
    """The one tool every request offers, worded for the agent's language."""
    return ToolSpec(
        name=SUBMIT_PROGRAM,
        description=prompts.render("tool-description", language=language_display_name),
        parameters={
            "type": "object",
            "properties": {
                "program": {
                    "type": "string",
                    "description": prompts.render("tool-program-argument", language=language_display_name),
                }
            },
            "required": ["program"],
            "additionalProperties": False,
        },
    )
