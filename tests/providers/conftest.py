from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gg.providers.anthropic_client import AnthropicClient
from gg.providers.openai_compatible import OpenAIClient

from .chat_server import ChatServer
from .clients import anthropic_client_for, client_for
from .messages_server import messages_server
from .operator import Operator


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    server = ChatServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def operator() -> Operator:
    return Operator()


@pytest.fixture
def connect(chat_server: ChatServer, operator: Operator) -> Iterator[Callable[..., OpenAIClient]]:
    """`connect(**options)`: a client of the loopback server, closed after the test."""
    built: list[OpenAIClient] = []

    def build(**options: Any) -> OpenAIClient:
        built.append(client_for(chat_server, operator, **options))
        return built[-1]

    yield build
    for client in built:
        client.close()


@pytest.fixture
def anthropic_server() -> Iterator[ChatServer]:
    server = messages_server()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def connect_anthropic(
    anthropic_server: ChatServer, operator: Operator
) -> Iterator[Callable[..., AnthropicClient]]:
    """`connect_anthropic(**options)`: a client of the loopback Messages server, closed after the test."""
    built: list[AnthropicClient] = []

    def build(**options: Any) -> AnthropicClient:
        built.append(anthropic_client_for(anthropic_server, operator, **options))
        return built[-1]

    yield build
    for client in built:
        client.close()
