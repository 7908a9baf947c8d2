"""Building an OpenAI-compatible client against the loopback server, with the world recorded."""

from __future__ import annotations

from typing import Any

from gg.deadline import RunLeft, unbounded
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
    server: ChatServer, operator: Operator, *, model: str = "test-model", **settings: Any
) -> OpenAIClient:
    """An OpenAI-compatible client of `server`; `settings` as `_built` takes them."""
    client = _built("openai", {"OPENAI_API_KEY": API_KEY}, server, operator, model=model, **settings)
    assert isinstance(client, OpenAIClient)
    return client


def anthropic_client_for(
    server: ChatServer, operator: Operator, *, model: str = "claude-test-4", **settings: Any
) -> AnthropicClient:
    """An Anthropic client of `server`; `settings` as `_built` takes them."""
    client = _built(
        "anthropic", {"ANTHROPIC_API_KEY": ANTHROPIC_KEY}, server, operator, model=model, **settings
    )
    assert isinstance(client, AnthropicClient)
    return client


def _built(
    provider: str,
    environ: dict[str, str],
    server: ChatServer,
    operator: Operator,
    *,
    model: str,
    memory: ToolChoiceMemory | None = None,
    attempts: int = 4,
    timeout_secs: float = 10.0,
    run_left: RunLeft = unbounded,
    base_url: str | None = None,
    **options: Any,
) -> Any:
    """A client built the way the run builds one, talking to `server` with a test key, retrying
    on `operator`'s clock (no real sleeping unless the operator's clock does), within `run_left`,
    with the extra `build_client` `options`."""
    return build_client(
        provider=provider,
        model=model,
        base_url=base_url or server.base_url,
        tool_choice_memory=memory or ToolChoiceMemory(),
        log=operator.log,
        retrier=Retrier(
            log=operator.log,
            policy=RetryPolicy(retries=attempts - 1),
            timeout_secs=timeout_secs,
            run_left=run_left,
            sleep=operator.sleep,
        ),
        environ=environ,
        **options,
    )


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
