"""Building an OpenAI-compatible client against the loopback server, with the world recorded."""

from __future__ import annotations

from gg.providers.anthropic_client import AnthropicClient
from gg.providers.base import Message, Request, submit_program_tool
from gg.providers.factory import build_client
from gg.providers.openai_compatible import OpenAIClient
from gg.providers.retry import Retrier, RetryPolicy
from gg.providers.tool_choice import ToolChoiceMemory

from .chat_server import ChatServer
from .operator import Operator

API_KEY = "sk-loopback"
ANTHROPIC_KEY = "sk-ant-loopback"


def client_for(
    server: ChatServer,
    operator: Operator,
    *,
    model: str = "test-model",
    memory: ToolChoiceMemory | None = None,
    attempts: int = 4,
    timeout_secs: float = 10.0,
    base_url: str | None = None,
    max_output_tokens: int | None = None,
    temperature: float | None = None,
    session_id: str | None = None,
) -> OpenAIClient:
    client = build_client(
        provider="openai",
        model=model,
        base_url=base_url or server.base_url,
        tool_choice_memory=memory or ToolChoiceMemory(),
        log=operator.log,
        retrier=Retrier(
            log=operator.log, policy=RetryPolicy(attempts=attempts), sleep=operator.sleep, draw=lambda: 1.0
        ),
        request_timeout_secs=timeout_secs,
        environ={"OPENAI_API_KEY": API_KEY},
        max_output_tokens=max_output_tokens,
        temperature=temperature,
        session_id=session_id,
    )
    assert isinstance(client, OpenAIClient)
    return client


def anthropic_client_for(
    server: ChatServer,
    operator: Operator,
    *,
    model: str = "claude-test-4",
    memory: ToolChoiceMemory | None = None,
    attempts: int = 4,
    timeout_secs: float = 10.0,
    base_url: str | None = None,
    max_output_tokens: int | None = None,
    temperature: float | None = None,
    cache_lifetime: str | None = None,
) -> AnthropicClient:
    client = build_client(
        provider="anthropic",
        model=model,
        base_url=base_url or server.base_url,
        tool_choice_memory=memory or ToolChoiceMemory(),
        log=operator.log,
        retrier=Retrier(
            log=operator.log, policy=RetryPolicy(attempts=attempts), sleep=operator.sleep, draw=lambda: 1.0
        ),
        request_timeout_secs=timeout_secs,
        environ={"ANTHROPIC_API_KEY": ANTHROPIC_KEY},
        max_output_tokens=max_output_tokens,
        temperature=temperature,
        cache_lifetime=cache_lifetime,
    )
    assert isinstance(client, AnthropicClient)
    return client


def a_request(
    *messages: Message, max_output_tokens: int | None = None, volatile_tail: bool = False
) -> Request:
    return Request(
        system="You are a test.",
        messages=messages or (Message("user", "Task\n----\nwrite a.txt"),),
        tool=submit_program_tool("JavaScript"),
        max_output_tokens=max_output_tokens,
        temperature=None,
        volatile_tail=volatile_tail,
    )
