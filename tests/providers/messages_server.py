"""Anthropic Messages answers, in the exact JSON the API returns, for the loopback server."""

from __future__ import annotations

import json
from typing import Any

from .chat_server import Answer, ChatServer, json_answer

MODEL = "claude-test-4"


def messages_server() -> ChatServer:
    """A loopback `/v1/messages` endpoint; the SDK's base URL is the bare origin."""
    return ChatServer(path="/v1/messages", base_path="")


def usage(
    input_tokens: int = 10,
    output_tokens: int = 5,
    *,
    cache_read: int = 0,
    cache_write_5m: int = 0,
    cache_write_1h: int = 0,
) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": cache_write_5m + cache_write_1h,
        "cache_read_input_tokens": cache_read,
        "cache_creation": {
            "ephemeral_5m_input_tokens": cache_write_5m,
            "ephemeral_1h_input_tokens": cache_write_1h,
        },
        "output_tokens": output_tokens,
        "service_tier": "standard",
    }


def message(
    *content: dict[str, Any],
    stop_reason: str = "tool_use",
    usage_body: dict[str, Any] | None = None,
    model: str = MODEL,
) -> Answer:
    body = {
        "id": "msg_01TestTestTestTestTestTe",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage_body or usage(),
    }
    return json_answer(200, body, {"request-id": "req_011Test"})


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(program: str, call_id: str = "toolu_01A") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "submit_program", "input": {"program": program}}


def program_message(program: str, call_id: str = "toolu_01A") -> Answer:
    return message(tool_use(program, call_id))


def api_error(status: int, kind: str, text_: str, headers: dict[str, str] | None = None) -> Answer:
    body = {"type": "error", "error": {"type": kind, "message": text_}, "request_id": "req_011Error"}
    return Answer(
        status,
        json.dumps(body).encode(),
        {"Content-Type": "application/json", "request-id": "req_011Error", **(headers or {})},
    )
