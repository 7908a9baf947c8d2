"""The OpenAI-compatible client against a real loopback Chat Completions endpoint."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable

import pytest

from gg.outcome import ErrorType
from gg.providers.base import Message, ModelError, ToolCall, Usage
from gg.providers.factory import build_client
from gg.providers.openai_compatible import OpenAIClient
from gg.providers.tool_choice import ToolChoiceMemory

from .chat_server import Answer, ChatServer, completion, error, json_answer, program_completion
from .clients import API_KEY, a_request
from .operator import Operator

Connect = Callable[..., OpenAIClient]
PINNED = {"type": "function", "function": {"name": "submit_program"}}


def test_a_request_offers_one_tool_pins_the_choice_and_sends_the_key(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(program_completion("1"))
    connect().complete(a_request())
    [received] = chat_server.received
    body = received.json
    assert received.path == "/v1/chat/completions"
    assert received.headers["authorization"] == f"Bearer {API_KEY}"
    assert body["model"] == "test-model"
    assert body["tool_choice"] == PINNED
    [tool] = body["tools"]
    assert tool["type"] == "function"
    assert tool["function"]["name"] == "submit_program"
    assert tool["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "program": {"type": "string", "description": "The whole JavaScript program, as source code."}
        },
        "required": ["program"],
        "additionalProperties": False,
    }
    assert "stream" not in body and "max_tokens" not in body and "temperature" not in body


def test_the_system_prompt_comes_first_and_each_message_keeps_its_wire_shape(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(program_completion("2"))
    history = (
        Message("user", "Task\n----\ndo it"),
        Message(
            "assistant",
            "thinking aloud",
            tool_calls=(
                ToolCall("call_1_1", "submit_program", {"program": "a()"}),
                ToolCall("call_1_2", "submit_program", '{"program": "b(}'),
            ),
        ),
        Message("tool", "k3p9", tool_call_id="call_1_1"),
        Message("tool", "ok", tool_call_id="call_1_2"),
        Message("assistant", "", tool_calls=(ToolCall("call_2_1", "submit_program", {"program": "c"}),)),
        Message("user", "Notice\n----\nsomething"),
    )
    connect().complete(a_request(*history))
    messages = chat_server.received[0].json["messages"]
    assert messages[0] == {"role": "system", "content": "You are a test."}
    assert messages[1] == {"role": "user", "content": "Task\n----\ndo it"}
    assert messages[2]["role"] == "assistant" and messages[2]["content"] == "thinking aloud"
    assert messages[2]["tool_calls"] == [
        _wire_call("call_1_1", json.dumps({"program": "a()"})),
        _wire_call("call_1_2", '{"program": "b(}'),  # a raw string goes back as it came
    ]
    assert messages[3] == {"role": "tool", "tool_call_id": "call_1_1", "content": "k3p9"}
    assert messages[4] == {"role": "tool", "tool_call_id": "call_1_2", "content": "ok"}
    assert messages[5]["content"] == ""  # never null: llama.cpp's server answers 500 to it
    assert messages[6] == {"role": "user", "content": "Notice\n----\nsomething"}


def _wire_call(call_id: str, arguments: str) -> dict[str, object]:
    return {"id": call_id, "type": "function", "function": {"name": "submit_program", "arguments": arguments}}


def test_the_output_cap_of_a_self_hosted_endpoint_is_sent_as_max_tokens(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(program_completion("1"), program_completion("2"))
    client = connect(max_output_tokens=500, temperature=0.2)
    client.complete(a_request())
    client.complete(a_request(max_output_tokens=99))
    first, second = (r.json for r in chat_server.received)
    assert (first["max_tokens"], first["temperature"]) == (500, 0.2)
    assert second["max_tokens"] == 99


def test_a_reply_keeps_its_text_its_calls_and_its_usage(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    usage = {
        "prompt_tokens": 120,
        "completion_tokens": 30,
        "total_tokens": 150,
        "prompt_tokens_details": {"cached_tokens": 100, "cache_write_tokens": 7},
    }
    chat_server.script(
        completion(
            "Here is the program.",
            [
                ("call_x", "submit_program", '{"program": "files.writeFile(\\"a\\", \\"x\\")"}'),
                ("call_y", "read_file", '{"path": "a"}'),
            ],
            usage=usage,
            model="test-model-2024",
        )
    )
    reply = connect().complete(a_request())
    assert reply.text == "Here is the program."
    assert reply.calls == (
        ToolCall(
            "call_x",
            "submit_program",
            {"program": 'files.writeFile("a", "x")'},
            raw_arguments='{"program": "files.writeFile(\\"a\\", \\"x\\")"}',
        ),
        ToolCall("call_y", "read_file", {"path": "a"}, raw_arguments='{"path": "a"}'),
    )
    assert reply.usage == Usage(120, 30, cache_read_tokens=100, cache_write_tokens=7)
    assert (reply.model, reply.response_model) == ("test-model-2024", "test-model-2024")


@pytest.mark.parametrize("arguments", ['{"program": "x(', '["not", "an", "object"]', ""])
def test_arguments_that_are_not_a_json_object_are_kept_raw(
    chat_server: ChatServer, connect: Connect, operator: Operator, arguments: str
) -> None:
    chat_server.script(completion(None, [("call_b", "submit_program", arguments)]))
    reply = connect().complete(a_request())
    assert reply.text == ""
    assert reply.calls == (ToolCall("call_b", "submit_program", arguments, raw_arguments=arguments),)


@pytest.mark.parametrize("control", ["\n", "\t", "\r"])
def test_a_raw_control_character_inside_an_argument_string_is_read_as_itself(
    chat_server: ChatServer, connect: Connect, control: str
) -> None:
    arguments = '{"program": "const a = 1;' + control + 'files.writeFile(\\"a\\", a)"}'
    chat_server.script(completion(None, [("call_n", "submit_program", arguments)]))
    [call] = connect().complete(a_request()).calls
    assert call.arguments == {"program": "const a = 1;" + control + 'files.writeFile("a", a)'}
    assert call.raw_arguments == arguments


@pytest.mark.parametrize(
    ("details", "read"),
    [
        (None, None),
        ({}, None),
        ({"cached_tokens": 0}, 0),
        ({"cached_tokens": 64}, 64),
        ({"cached_tokens": 10**23}, None),  # past 2^53: no count gg keeps
    ],
)
def test_cache_reads_the_server_did_not_report_are_unknown_not_zero(
    chat_server: ChatServer, connect: Connect, details: dict[str, int] | None, read: int | None
) -> None:
    usage: dict[str, object] = {"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105}
    if details is not None:
        usage["prompt_tokens_details"] = details
    chat_server.script(completion("a", usage=usage, finish_reason="stop"))
    assert connect().complete(a_request()).usage == Usage(100, 5, cache_read_tokens=read)


def test_a_reply_with_no_calls_is_still_a_reply(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(completion("All done.", finish_reason="stop"))
    reply = connect().complete(a_request())
    assert (reply.text, reply.calls) == ("All done.", ())


def test_a_reply_cut_off_by_its_length_cap_is_model_length_capped_and_keeps_its_usage(
    chat_server: ChatServer,
    connect: Connect,
    operator: Operator,
) -> None:
    chat_server.script(completion(None, [("c", "submit_program", '{"prog')], finish_reason="length"))
    with pytest.raises(ModelError) as caught:
        connect().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_LENGTH_CAPPED
    assert caught.value.usage == Usage(10, 5)
    assert len(chat_server.received) == 1


@pytest.mark.parametrize(
    "answer",
    [
        Answer(200, b"<html>gateway says hi</html>", {"Content-Type": "text/html"}),
        Answer(200, b"{not json", {"Content-Type": "application/json"}),
        json_answer(200, {"id": "x", "choices": []}),
        json_answer(200, {"choices": [{"message": {"content": "x", "tool_calls": [{"function": {}}]}}]}),
    ],
    ids=["html", "broken-json", "no-choices", "call-without-name"],
)
def test_a_body_that_cannot_be_read_is_model_parse_and_is_not_retried(
    chat_server: ChatServer, connect: Connect, operator: Operator, answer: Answer
) -> None:
    chat_server.script(answer)
    with pytest.raises(ModelError) as caught:
        connect().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_PARSE
    assert len(chat_server.received) == 1


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_is_model_auth_and_is_not_retried(
    chat_server: ChatServer, connect: Connect, operator: Operator, status: int
) -> None:
    chat_server.script(error(status, "Incorrect API key provided"))
    with pytest.raises(ModelError) as caught:
        connect().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_AUTH
    assert "Incorrect API key provided" in caught.value.message
    assert len(chat_server.received) == 1
    assert operator.lines == []


@pytest.mark.parametrize("status", [404, 422])
def test_another_client_error_is_model_rejected_and_is_not_retried(
    chat_server: ChatServer, connect: Connect, operator: Operator, status: int
) -> None:
    chat_server.script(error(status, "no such model"))
    with pytest.raises(ModelError) as caught:
        connect().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_REJECTED
    assert len(chat_server.received) == 1


def test_a_rate_limit_waits_what_retry_after_asks_then_succeeds(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(error(429, "slow down", {"retry-after": "3"}), program_completion("1"))
    reply = connect().complete(a_request())
    assert reply.calls[0].arguments == {"program": "1"}
    assert operator.sleeps == [3.0]
    [(message, fields)] = operator.at("warn")
    assert "HTTP 429: slow down" in message
    assert fields["attempt"] == 1 and fields["status"] == 429
    assert chat_server.received[0].raw == chat_server.received[1].raw


def test_server_errors_that_outlast_the_schedule_are_model_retry_exhausted(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(*(error(500, "boom") for _ in range(4)))
    with pytest.raises(ModelError) as caught:
        connect().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_RETRY_EXHAUSTED
    assert "gave up after 4 attempts" in caught.value.message
    assert len(chat_server.received) == 4
    assert operator.sleeps == [1.0, 2.0, 4.0]  # 1 s, then twice the last
    assert [f["attempt"] for _, f in operator.at("warn")] == [1, 2, 3]


def test_a_refused_connection_is_retried_then_model_retry_exhausted(
    connect: Connect, operator: Operator
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = connect(attempts=2, base_url=f"http://127.0.0.1:{port}/v1")
    with pytest.raises(ModelError) as caught:
        client.complete(a_request())
    assert caught.value.type is ErrorType.MODEL_RETRY_EXHAUSTED
    assert "could not reach the endpoint" in caught.value.message
    assert len(operator.sleeps) == 1


def test_a_request_that_times_out_is_model_timeout_at_once_never_retried(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(*(Answer(200, b"{}", delay_secs=1.0) for _ in range(2)))
    with pytest.raises(ModelError) as caught:
        connect(attempts=2, timeout_secs=0.2).complete(a_request())
    assert caught.value.type is ErrorType.MODEL_TIMEOUT
    assert caught.value.message == "the request timed out after 0.2 s"
    assert (len(chat_server.received), operator.sleeps) == (1, [])


def test_every_request_carries_the_session_id_as_its_prompt_cache_key(
    chat_server: ChatServer, connect: Connect
) -> None:
    chat_server.script(program_completion("1"), program_completion("2"))
    client = connect(session_id="run-k3p9")
    client.complete(a_request())
    client.complete(a_request())
    for received in chat_server.received:
        body = received.json
        assert body["prompt_cache_key"] == "run-k3p9"
        assert "session_id" not in body and "usage" not in body


def test_openrouter_also_gets_the_session_id_for_sticky_routing_and_reports_the_cost(
    chat_server: ChatServer, operator: Operator
) -> None:
    usage = {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110, "cost": 0.00123}
    chat_server.script(completion(None, [("c", "submit_program", '{"program": "1"}')], usage=usage))
    client = build_client(
        provider="openrouter",
        model="anthropic/claude-sonnet-5.5",
        base_url=chat_server.base_url,
        tool_choice_memory=ToolChoiceMemory(),
        log=operator.log,
        session_id="run-k3p9",
        environ={"OPENROUTER_API_KEY": "sk-or"},
    )
    reply = client.complete(a_request())
    body = chat_server.received[0].json
    assert (body["prompt_cache_key"], body["session_id"]) == ("run-k3p9", "run-k3p9")
    assert body["usage"] == {"include": True}
    assert reply.cost_usd == 0.00123


def test_a_priced_name_asked_away_from_the_providers_endpoint_costs_only_what_pricing_says(
    chat_server: ChatServer, connect: Connect
) -> None:
    usage = {
        "prompt_tokens": 1_000,
        "completion_tokens": 100,
        "total_tokens": 1_100,
        "prompt_tokens_details": {"cached_tokens": 800},
    }
    chat_server.script(*(completion(n, usage=usage, finish_reason="stop", model="gemma") for n in "abcd"))
    at_gpt_4o = (200 * 2.5 + 800 * 1.25 + 100 * 10.0) / 1_000_000
    local = connect(model="gpt-4o").complete(a_request())  # a loopback server, not OpenAI's
    assert (local.cost_usd, local.response_model) == (None, "gemma")
    assert connect(model="gpt-4o", pricing="gpt-4o").complete(a_request()).cost_usd == pytest.approx(
        at_gpt_4o
    )
    assert connect(model="gemma", pricing="openai:gpt-4o").complete(a_request()).cost_usd == pytest.approx(
        at_gpt_4o
    )
    assert connect(model="llama3").complete(a_request()).cost_usd is None


def test_a_reply_nested_too_deep_to_read_is_model_parse_and_deep_arguments_stay_raw() -> None:
    from gg.providers.base import parse_arguments
    from gg.providers.chat_wire import parse_reply
    from gg.providers.failures import FailedAttempt, Symptom

    deep = "[" * 100_000 + "]" * 100_000
    failure = parse_reply('{"choices": ' + deep + "}", "gpt-4o")
    assert isinstance(failure, FailedAttempt) and failure.symptom is Symptom.UNREADABLE
    arguments = '{"program": ' + deep + "}"
    assert parse_arguments(arguments) == arguments


def test_a_request_is_given_no_more_than_is_left_of_the_runs_time(
    chat_server: ChatServer, connect: Connect, operator: Operator
) -> None:
    chat_server.script(Answer(200, b"{}", delay_secs=5.0))
    with pytest.raises(ModelError) as caught:
        connect(timeout_secs=900.0, run_left=lambda: 0.3).complete(a_request())
    assert caught.value.message == "the request timed out after 0.3 s"
    assert (len(chat_server.received), operator.sleeps) == (1, [])
