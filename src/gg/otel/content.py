"""What a model read and wrote, and what a program was and gave, as the GenAI conventions' content
attributes. Pure; used only when the operator asks for content (`--otel-content`).

Rules:
- A chat span's `gen_ai.input.messages` are the messages its request added to the window, as gg
  recorded them (the record keeps each message once, at the request that first sent it); a system
  prompt among them is `gen_ai.system_instructions` instead. `gen_ai.output.messages` is the one
  reply: its text and its tool calls, with its finish reason.
- Messages follow the conventions' JSON schemas (`role`, `parts` of type `text`, `tool_call`,
  `tool_call_response`) and are carried as JSON text, as the conventions allow on spans.
- A program's span carries its source as `gen_ai.tool.call.arguments` (`{"program": ...}`) and
  what it gave as `gen_ai.tool.call.result`: the receipt, its logs, its error and its final word.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gg.otel.names import GenAi
from gg.otel.record import dict_of, list_of, read_call, read_message
from gg.otel.spans import Attributes

SYSTEM_ROLE = "system"


def request_content(request: Mapping[str, Any]) -> Attributes:
    """`gen_ai.input.messages` (and `gen_ai.system_instructions`) of one `model_request`."""
    messages = [read_message(raw) for raw in list_of(request.get("messages"))]
    system = [{"type": "text", "content": m.content} for m in messages if m.role == SYSTEM_ROLE]
    inputs = [_input_message(m.role, m.content, m.tool_call_id, m.tool_calls) for m in messages]
    out: Attributes = {GenAi.INPUT_MESSAGES: _json([m for m in inputs if m["role"] != SYSTEM_ROLE])}
    if system:
        out[GenAi.SYSTEM_INSTRUCTIONS] = _json(system)
    return out


def reply_content(reply: Mapping[str, Any], finish_reason: str) -> Attributes:
    """`gen_ai.output.messages` of one `model_reply`: its text and its calls."""
    parts: list[dict[str, Any]] = []
    if text := str(reply.get("text") or ""):
        parts.append({"type": "text", "content": text})
    parts.extend(_tool_call(raw) for raw in list_of(reply.get("calls")))
    message = {"role": "assistant", "parts": parts, "finish_reason": finish_reason}
    return {GenAi.OUTPUT_MESSAGES: _json([message])}


def program_content(execution: Mapping[str, Any], receipt: str | None) -> Attributes:
    """A program's source, and what it gave, on its `execute_tool submit_program` span."""
    result = {
        "receipt": receipt,
        "logs": [str(line) for line in list_of(execution.get("logs"))],
        "error": execution.get("error"),
        "finished": execution.get("finished"),
    }
    out: Attributes = {GenAi.TOOL_CALL_RESULT: _json({k: v for k, v in result.items() if v is not None})}
    source = execution.get("source")
    if isinstance(source, str):
        out[GenAi.TOOL_CALL_ARGUMENTS] = _json({"program": source})
    return out


def _input_message(
    role: str, content: str, tool_call_id: str | None, tool_calls: tuple[dict[str, Any], ...]
) -> dict[str, Any]:
    if role == "tool":
        return {
            "role": role,
            "parts": [{"type": "tool_call_response", "id": tool_call_id, "response": content}],
        }
    parts: list[dict[str, Any]] = [{"type": "text", "content": content}] if content else []
    parts.extend(_tool_call(raw) for raw in tool_calls)
    return {"role": role, "parts": parts}


def _tool_call(raw: Any) -> dict[str, Any]:
    call = read_call(dict_of(raw))
    return {"type": "tool_call", "id": call.call_id, "name": call.tool, "arguments": call.arguments}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
