"""A refused pinned tool choice falls back to `auto` at once, remembered per model for the run."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gg.outcome import ErrorType
from gg.providers.base import ModelError
from gg.providers.openai_compatible import OpenAIClient
from gg.providers.tool_choice import ToolChoice, ToolChoiceMemory

from .chat_server import ChatServer, error, program_completion
from .clients import a_request
from .operator import Operator

Connect = Callable[..., OpenAIClient]
MODEL = "qwen/qwen3.8-max-0902"
REFUSAL = "The tool_choice parameter does not support being set to required or object in thinking mode"
PINNED_WIRE = b'{"type":"function","function":{"name":"submit_program"}}'


def test_a_refused_pin_is_resent_at_once_on_auto_byte_for_byte_and_warned_once(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(error(400, REFUSAL), program_completion("1"))
    reply = connect(model=MODEL).complete(a_request())
    assert reply.calls[0].arguments == {"program": "1"}
    first, second = chat_server.received
    assert first.json["tool_choice"] == {"type": "function", "function": {"name": "submit_program"}}
    assert second.json["tool_choice"] == "auto"
    assert second.raw == first.raw.replace(PINNED_WIRE, b'"auto"')
    assert operator.sleeps == []  # outside the retry schedule
    [(level, message, fields)] = operator.lines
    assert level == "warn"
    assert MODEL in message and "tool_choice parameter does not support" in message
    assert fields["model"] == f"openai:{MODEL}"


def test_after_a_refusal_the_next_request_for_that_model_starts_on_auto(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(error(400, REFUSAL), program_completion("1"), program_completion("2"))
    client = connect(model=MODEL)
    client.complete(a_request())
    client.complete(a_request())
    assert [r.json["tool_choice"] for r in chat_server.received] == [
        {"type": "function", "function": {"name": "submit_program"}},
        "auto",
        "auto",
    ]
    assert len(operator.at("warn")) == 1


def test_the_memory_is_shared_by_every_client_of_the_model_and_other_models_still_pin(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    memory = ToolChoiceMemory()
    chat_server.script(
        error(400, REFUSAL),
        program_completion("root"),
        program_completion("same"),
        program_completion("other"),
    )
    connect(model=MODEL, memory=memory).complete(a_request())
    connect(model=MODEL, memory=memory).complete(a_request())
    connect(model="openai/gpt-5.6", memory=memory).complete(a_request())
    assert [r.json["tool_choice"] for r in chat_server.received[1:]] == [
        "auto",
        "auto",
        {"type": "function", "function": {"name": "submit_program"}},
    ]
    assert memory.choice_for(f"openai:{MODEL}") is ToolChoice.AUTO
    assert memory.choice_for("openai:openai/gpt-5.6") is ToolChoice.PINNED
    assert len(operator.at("warn")) == 1


def test_a_second_refusal_of_the_same_model_warns_no_more(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    memory = ToolChoiceMemory()
    chat_server.script(
        error(400, REFUSAL), error(400, REFUSAL), program_completion("1"), program_completion("2")
    )
    first, second = connect(model=MODEL, memory=memory), connect(model=MODEL, memory=memory)
    with pytest.raises(ModelError):  # the 400 on auto is final
        first.complete(a_request())
    second.complete(a_request())
    assert len(operator.at("warn")) == 1


def test_a_400_on_a_request_already_on_auto_is_model_rejected(
    chat_server: ChatServer, connect: Connect
) -> None:
    chat_server.script(error(400, REFUSAL), error(400, "tool_choice auto is not supported either"))
    with pytest.raises(ModelError) as caught:
        connect(model=MODEL).complete(a_request())
    assert caught.value.type is ErrorType.MODEL_REJECTED
    assert len(chat_server.received) == 2


def test_an_unrelated_400_is_model_rejected_and_leaves_the_memory_unchanged(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    memory = ToolChoiceMemory()
    chat_server.script(error(400, "messages: too many"), program_completion("1"))
    client = connect(model=MODEL, memory=memory)
    with pytest.raises(ModelError) as caught:
        client.complete(a_request())
    assert caught.value.type is ErrorType.MODEL_REJECTED
    assert memory.choice_for(f"openai:{MODEL}") is ToolChoice.PINNED
    client.complete(a_request())
    assert chat_server.received[1].json["tool_choice"] != "auto"
    assert operator.lines == []


@pytest.mark.parametrize("status", [404, 422])
def test_another_status_naming_tool_choice_is_not_a_refused_pin(
    chat_server: ChatServer, connect: Connect, status: int
) -> None:
    chat_server.script(error(status, "tool_choice is not supported"))
    with pytest.raises(ModelError) as caught:
        connect(model=MODEL).complete(a_request())
    assert caught.value.type is ErrorType.MODEL_REJECTED
    assert len(chat_server.received) == 1


def test_the_request_resent_on_auto_has_its_own_retry_schedule(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(error(400, REFUSAL), error(503, "busy"), program_completion("1"))
    connect(model=MODEL).complete(a_request())
    assert [r.json["tool_choice"] for r in chat_server.received[1:]] == ["auto", "auto"]
    assert operator.sleeps == [1.0]
