"""The Chat Completions wire: a `Request` as a request body, a response body as a `Reply`.

- The system prompt is the first message; an assistant message carries its calls as
  `tool_calls` with JSON-string arguments (a raw string is sent back as it came) and its text as
  `content`, an empty string when it has none (never `null`, which llama.cpp's server refuses);
  a tool message carries its `tool_call_id`.
- One tool is offered; the pinned choice names it, `auto` is the bare string.
- A reply is read leniently (servers differ in what they omit) but a body with no first choice,
  no message, or a call with no function name is unreadable. `finish_reason: "length"` is a
  reply cut off by its cap. A cache read the server does not report (`prompt_tokens_details.
  cached_tokens`) is unknown, not zero. A cost the provider reports itself (`usage.cost`, OpenRouter's, in
  US dollars) becomes the reply's `cost_usd`.
"""

from __future__ import annotations

import json
from typing import Any

from gg.providers.base import (
    Message,
    Reply,
    Request,
    ToolCall,
    ToolSpec,
    Usage,
    parse_arguments,
    reported_count,
)
from gg.providers.failures import FailedAttempt, Symptom
from gg.providers.tool_choice import ToolChoice
from gg.wire import read_json


def request_body(request: Request, model: str, token_cap_field: str) -> dict[str, Any]:
    """Every field but `tool_choice`, in the order they go on the wire."""
    body: dict[str, Any] = {
        "model": model,
        "messages": [{"role": "system", "content": request.system}]
        + [wire_message(m) for m in request.messages],
        "tools": [wire_tool(request.tool)],
    }
    if request.max_output_tokens is not None:
        body[token_cap_field] = request.max_output_tokens
    if request.temperature is not None:
        body["temperature"] = request.temperature
    return body


def wire_tool_choice(choice: ToolChoice, tool: ToolSpec) -> str | dict[str, Any]:
    if choice is ToolChoice.AUTO:
        return "auto"
    return {"type": "function", "function": {"name": tool.name}}


def wire_tool(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": tool.parameters},
    }


def wire_message(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content,
            "tool_calls": [_wire_call(c) for c in message.tool_calls],
        }
    return {"role": message.role, "content": message.content}


def _wire_call(call: ToolCall) -> dict[str, Any]:
    arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": arguments}}


class _Unreadable(Exception):
    pass


def parse_reply(raw: str, model: str) -> Reply | FailedAttempt:
    """Read a 200 body. Unreadable bodies and length-capped replies come back as failures."""
    try:
        body = _object(read_json(raw), "the body")
        choice = _object(_first(body.get("choices")), "choices[0]")
        message = _object(choice.get("message"), "choices[0].message")
        reply = Reply(
            text=_text(message.get("content")),
            calls=tuple(_call(c, n) for n, c in enumerate(_list(message.get("tool_calls")), 1)),
            usage=_usage(body.get("usage")),
            model=body["model"] if isinstance(body.get("model"), str) else model,
            cost_usd=_reported_cost(body.get("usage")),
            response_model=_named(body.get("model")),
        )
    except (ValueError, _Unreadable) as exc:
        return FailedAttempt(Symptom.UNREADABLE, f"the reply could not be read: {exc}", status=200, body=raw)
    if choice.get("finish_reason") == "length":
        return FailedAttempt(
            Symptom.LENGTH_CAPPED,
            "the reply was cut off by its output token cap",
            usage=reply.usage,
            cost_usd=reply.cost_usd,
        )
    return reply


def _call(value: Any, number: int) -> ToolCall:
    call = _object(value, f"tool call {number}")
    function = _object(call.get("function"), f"tool call {number}'s function")
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise _Unreadable(f"tool call {number} has no function name")
    arguments = function.get("arguments")
    call_id = call.get("id")
    return ToolCall(
        id=call_id if isinstance(call_id, str) and call_id else f"call_{number}",
        name=name,
        arguments=_arguments(arguments),
        raw_arguments=arguments if isinstance(arguments, str) else None,
    )


def _arguments(value: Any) -> str | dict[str, Any]:
    if isinstance(value, str):
        return parse_arguments(value)
    if isinstance(value, dict):  # a few servers send the object itself
        return {str(k): v for k, v in value.items()}
    return "" if value is None else json.dumps(value)


def _usage(value: Any) -> Usage:
    if not isinstance(value, dict):
        return Usage(0, 0)
    details = value.get("prompt_tokens_details")
    cached = details if isinstance(details, dict) else {}
    return Usage(
        input_tokens=_count(value.get("prompt_tokens")),
        output_tokens=_count(value.get("completion_tokens")),
        cache_read_tokens=reported_count(cached.get("cached_tokens")),
        cache_write_tokens=_count(cached.get("cache_write_tokens")),
    )


def _named(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _reported_cost(value: Any) -> float | None:
    cost = value.get("cost") if isinstance(value, dict) else None
    if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
        return None
    return float(cost)


def _count(value: Any) -> int:
    return reported_count(value) or 0


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # content parts: keep their text, in order
        parts: list[Any] = value
        return "".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str))
    raise _Unreadable("the message content is neither text nor a list of parts")


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Unreadable(f"{what} is not an object")
    return value


def _list(value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Unreadable("tool_calls is not a list")
    return value


def _first(value: Any) -> Any:
    if not isinstance(value, list) or not value:
        raise _Unreadable("it has no choices")
    return value[0]
