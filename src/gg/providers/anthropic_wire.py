"""The Anthropic Messages wire: a `Request` as a request body, a response body as a `Reply`.

- The system prompt is one text block; the one tool is `{name, description, input_schema}`.
- Every content-bearing message is sent as its own message with a content array, whether or
  not a cache point rides it, so a moving point never changes a message's bytes: a user message
  is one text block; a tool message is a user message holding one `tool_result` block; an
  assistant message is its text block (when it has text) then one `tool_use` block per call.
  A message with nothing to send (no text, no calls) is left out. Consecutive user messages
  stay separate; the API joins them into one turn.
- A call's arguments go back as its `input` object; a raw string (a reply from another
  provider) goes back as `{"raw": <string>}`, never repaired.
- An assistant message this client received with thinking blocks is sent back as it came (its
  thinking, text and `tool_use` blocks in their order, `thoughts` keyed by `turn_key`): the API
  needs a tool-using turn's thinking back, and re-sending it every turn keeps the prefix's bytes.
- Cache points (`cache_points.py`) ride the last block of their message that is not thinking,
  or the system block.
- A reply's text is its text blocks joined; its calls are its `tool_use` blocks in order; other
  blocks (thinking) are not read. `stop_reason: max_tokens` (or the context window's own cap) is
  a reply cut off by its cap. `input_tokens` excludes cache reads and writes, so `Usage`'s
  prompt count adds them back; a cache read the API does not report is unknown, not zero.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gg.providers.base import Message, Reply, Request, ToolCall, ToolSpec, Usage, reported_count
from gg.providers.cache_points import SYSTEM, cache_points
from gg.providers.failures import FailedAttempt, Symptom
from gg.providers.tool_choice import ToolChoice
from gg.wire import read_json

DEFAULT_CACHE_LIFETIME = "5m"
_UNMARKABLE = frozenset({"thinking", "redacted_thinking"})  # a cache point cannot ride these
_CAPPED = frozenset({"max_tokens", "model_context_window_exceeded"})


TurnKey = tuple[str, tuple[str, ...]]
Thoughts = Mapping[TurnKey, tuple[dict[str, Any], ...]]
_REPLAYED_BLOCKS = {
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
    "text": ("type", "text"),
    "tool_use": ("type", "id", "name", "input"),
}


def request_body(
    request: Request,
    model: str,
    *,
    max_tokens: int,
    cache_lifetime: str = DEFAULT_CACHE_LIFETIME,
    thoughts: Thoughts | None = None,
) -> dict[str, Any]:
    """Every field but `tool_choice`, in the order they go on the wire."""
    system: list[dict[str, Any]] = [{"type": "text", "text": request.system}]
    messages = [wire for m in request.messages if (wire := wire_message(m, thoughts or {})) is not None]
    for point in cache_points([m["role"] for m in messages], volatile_tail=request.volatile_tail):
        blocks = system if point.index == SYSTEM else messages[point.index]["content"]
        at = max(i for i, b in enumerate(blocks) if b["type"] not in _UNMARKABLE)
        blocks[at] = {**blocks[at], "cache_control": cache_control(cache_lifetime if point.durable else None)}
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": max_tokens,
        "system": system,
        "tools": [wire_tool(request.tool)],
        "messages": messages,
    }
    if request.temperature is not None:
        body["temperature"] = request.temperature
    return body


def cache_control(lifetime: str | None) -> dict[str, str]:
    """The marker; a lifetime other than the provider default is named."""
    if lifetime is None or lifetime == DEFAULT_CACHE_LIFETIME:
        return {"type": "ephemeral"}
    return {"type": "ephemeral", "ttl": lifetime}


def wire_tool_choice(choice: ToolChoice, tool: ToolSpec) -> dict[str, Any]:
    if choice is ToolChoice.AUTO:
        return {"type": "auto"}
    return {"type": "tool", "name": tool.name}


def wire_tool(tool: ToolSpec) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}


def turn_key(text: str, calls: tuple[ToolCall, ...]) -> TurnKey:
    """What identifies an assistant turn in the window: its text and its call ids."""
    return text, tuple(call.id for call in calls)


def wire_message(message: Message, thoughts: Thoughts) -> dict[str, Any] | None:
    """The message as sent, or None when it has nothing to send."""
    if message.role == "assistant":
        received = thoughts.get(turn_key(message.content, message.tool_calls))
        if received:
            return {"role": "assistant", "content": [dict(block) for block in received]}
    if message.role == "tool":
        block = {"type": "tool_result", "tool_use_id": message.tool_call_id or "", "content": message.content}
        return {"role": "user", "content": [block]}
    blocks: list[dict[str, Any]] = []
    if message.content.strip():
        blocks.append({"type": "text", "text": message.content})
    if message.role == "assistant":
        blocks.extend(_tool_use(c) for c in message.tool_calls)
    if not blocks:
        return None
    return {"role": "assistant" if message.role == "assistant" else "user", "content": blocks}


def _tool_use(call: ToolCall) -> dict[str, Any]:
    arguments = call.arguments if isinstance(call.arguments, dict) else {"raw": call.arguments}
    return {"type": "tool_use", "id": call.id, "name": call.name, "input": arguments}


class _Unreadable(Exception):
    pass


def parse_reply(raw: str, model: str) -> Reply | FailedAttempt:
    """Read a 200 body. Unreadable bodies and capped replies come back as failures."""
    try:
        body = _object(read_json(raw), "the body")
        blocks = [_object(b, "a content block") for b in _list(body.get("content"), "content")]
        reply = Reply(
            text="".join(_text(b) for b in blocks if b.get("type") == "text"),
            calls=tuple(_call(b, n) for n, b in enumerate(_tool_uses(blocks), 1)),
            usage=_usage(body.get("usage")),
            model=body["model"] if isinstance(body.get("model"), str) else model,
            response_model=body["model"] if isinstance(body.get("model"), str) and body["model"] else None,
        )
    except (ValueError, _Unreadable) as exc:
        return FailedAttempt(Symptom.UNREADABLE, f"the reply could not be read: {exc}", status=200, body=raw)
    if body.get("stop_reason") in _CAPPED:
        return FailedAttempt(
            Symptom.LENGTH_CAPPED, "the reply was cut off by its output token cap", usage=reply.usage
        )
    return reply


def thinking_turn(raw: str) -> tuple[dict[str, Any], ...] | None:
    """A readable reply's content blocks, as they go back, when it holds thinking; else None."""
    blocks = [b for b in json.loads(raw).get("content", []) if isinstance(b, dict)]
    if not any(b.get("type") in ("thinking", "redacted_thinking") for b in blocks):
        return None
    kept = [b for b in blocks if b.get("type") in _REPLAYED_BLOCKS]
    return tuple({k: b[k] for k in _REPLAYED_BLOCKS[str(b["type"])] if k in b} for b in kept)


def _tool_uses(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for b in blocks if b.get("type") == "tool_use"]


def _call(block: dict[str, Any], number: int) -> ToolCall:
    name, call_id, arguments = block.get("name"), block.get("id"), block.get("input")
    if not isinstance(name, str) or not name:
        raise _Unreadable(f"tool call {number} has no name")
    return ToolCall(
        id=call_id if isinstance(call_id, str) and call_id else f"call_{number}",
        name=name,
        arguments=arguments if isinstance(arguments, dict) else json.dumps(arguments),
    )


def _text(block: dict[str, Any]) -> str:
    text = block.get("text")
    if not isinstance(text, str):
        raise _Unreadable("a text block has no text")
    return text


def _usage(value: Any) -> Usage:
    if not isinstance(value, dict):
        return Usage(0, 0)
    read = reported_count(value.get("cache_read_input_tokens"))
    written = _count(value.get("cache_creation_input_tokens"))
    split = value.get("cache_creation")
    long_written = _count(split.get("ephemeral_1h_input_tokens")) if isinstance(split, dict) else 0
    return Usage(
        input_tokens=_count(value.get("input_tokens")) + (read or 0) + written,
        output_tokens=_count(value.get("output_tokens")),
        cache_read_tokens=read,
        cache_write_tokens=written,
        cache_write_1h_tokens=min(long_written, written),
    )


def _count(value: Any) -> int:
    return reported_count(value) or 0


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Unreadable(f"{what} is not an object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Unreadable(f"`{what}` is not a list")
    return value
