"""The Anthropic client against a real loopback Messages endpoint: the wire, field by field."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import pytest

from gg.outcome import ErrorType
from gg.providers.anthropic_client import AnthropicClient
from gg.providers.base import Message, ModelError, ToolCall, Usage
from gg.providers.tool_choice import ToolChoiceMemory

from .chat_server import DROPPED, Answer, ChatServer, json_answer, truncated
from .clients import ANTHROPIC_KEY, a_request
from .messages_server import api_error, message, program_message, text, tool_use, usage
from .operator import Operator

Connect = Callable[..., AnthropicClient]
PINNED = {"type": "tool", "name": "submit_program"}
EPHEMERAL = {"type": "ephemeral"}
REFUSAL = "tool_choice: forcing tool use is not supported when thinking is enabled"


def test_a_request_offers_one_tool_pins_the_choice_and_sends_the_key(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(program_message("1"))
    connect_anthropic().complete(a_request())
    [received] = anthropic_server.received
    body = received.json
    assert received.path == "/v1/messages"
    sent_key = received.headers.get("x-api-key") or received.headers["authorization"].removeprefix("Bearer ")
    assert sent_key == ANTHROPIC_KEY
    assert "anthropic-version" in received.headers
    assert set(body) == {"model", "max_tokens", "system", "tools", "tool_choice", "messages"}
    assert (body["model"], body["max_tokens"]) == ("claude-test-4", 8192)
    assert body["tool_choice"] == PINNED
    assert body["tools"] == [
        {
            "name": "submit_program",
            "description": body["tools"][0]["description"],
            "input_schema": {
                "type": "object",
                "properties": {
                    "program": {
                        "type": "string",
                        "description": "The whole JavaScript program, as source code.",
                    }
                },
                "required": ["program"],
                "additionalProperties": False,
            },
        }
    ]
    assert body["system"] == [{"type": "text", "text": "You are a test."}]
    assert body["messages"] == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "Task\n----\nwrite a.txt", "cache_control": EPHEMERAL}],
        }
    ]


def test_each_message_is_a_content_array_and_tool_results_ride_user_messages(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(program_message("2"))
    history = (
        Message("user", "Task\n----\ndo it"),
        Message(
            "assistant",
            "thinking aloud",
            tool_calls=(
                ToolCall("toolu_1", "submit_program", {"program": "a()"}),
                ToolCall("call_x", "submit_program", '{"program": "b(}'),
            ),
        ),
        Message("tool", "k3p9", tool_call_id="toolu_1"),
        Message("tool", "ok", tool_call_id="call_x"),
        Message("assistant", "", tool_calls=(ToolCall("toolu_2", "submit_program", {"program": "c"}),)),
        Message("assistant", "  "),  # nothing to send: left out
        Message("user", "Notice\n----\nsomething"),
    )
    connect_anthropic(max_output_tokens=500, temperature=0.2).complete(a_request(*history))
    body = anthropic_server.received[0].json
    assert (body["max_tokens"], body["temperature"]) == (500, 0.2)
    messages = [_unmarked(m) for m in body["messages"]]
    assert messages == [
        {"role": "user", "content": [{"type": "text", "text": "Task\n----\ndo it"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "thinking aloud"},
                {"type": "tool_use", "id": "toolu_1", "name": "submit_program", "input": {"program": "a()"}},
                {
                    "type": "tool_use",
                    "id": "call_x",
                    "name": "submit_program",
                    "input": {"raw": '{"program": "b(}'},
                },
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "k3p9"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_x", "content": "ok"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_2", "name": "submit_program", "input": {"program": "c"}}
            ],
        },
        {"role": "user", "content": [{"type": "text", "text": "Notice\n----\nsomething"}]},
    ]
    assert _marks(body) == {0: EPHEMERAL, 5: EPHEMERAL}  # the anchor and the tail


def test_cache_points_stay_on_a_fixed_grid_and_sent_messages_never_change_bytes(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    client = connect_anthropic()
    sizes = (1, 5, 9, 17, 19, 30)
    anthropic_server.script(*(program_message(str(n)) for n in sizes))
    for size in sizes:
        client.complete(a_request(*_thread(size)))
    bodies = [r.json for r in anthropic_server.received]
    assert [sorted(_marks(b)) for b in bodies] == [
        [0],
        [0, 4],
        [0, 7, 8],
        [0, 7, 15, 16],
        [0, 7, 15, 18],
        [0, 15, 23, 29],
    ]
    for before, after in itertools.pairwise(bodies):
        shared = len(before["messages"])
        unmarked = [json.dumps(_unmarked(m)) for m in before["messages"]]
        assert [json.dumps(_unmarked(m)) for m in after["messages"][:shared]] == unmarked
    assert all(b["system"] == [{"type": "text", "text": "You are a test."}] for b in bodies)


def test_the_one_hour_lifetime_rides_the_anchor_and_rolling_points_but_not_the_tail(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(program_message("1"))
    connect_anthropic(cache_lifetime="1h").complete(a_request(*_thread(19)))
    long = {"type": "ephemeral", "ttl": "1h"}
    assert _marks(anthropic_server.received[0].json) == {0: long, 7: long, 15: long, 18: EPHEMERAL}


def test_a_volatile_last_message_is_skipped_by_the_tail_point(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(program_message("1"))
    connect_anthropic().complete(a_request(*_thread(5), volatile_tail=True))
    body = anthropic_server.received[0].json
    assert sorted(_marks(body)) == [0, 3]
    assert "cache_control" not in json.dumps(body["messages"][4])


def test_an_opening_assistant_turn_moves_the_anchor_to_the_system_prompt(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(program_message("1"))
    opening = (
        Message("assistant", "", tool_calls=(ToolCall("toolu_0", "submit_program", {"program": "x"}),)),
        Message("tool", "ok", tool_call_id="toolu_0"),
    )
    connect_anthropic().complete(a_request(*opening))
    body = anthropic_server.received[0].json
    assert body["system"] == [{"type": "text", "text": "You are a test.", "cache_control": EPHEMERAL}]
    assert sorted(_marks(body)) == [1]


def test_a_reply_keeps_its_text_its_calls_its_usage_and_its_cost(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(
        message(
            text("Here is "),
            {"type": "thinking", "thinking": "hmm", "signature": "sig"},
            text("the program."),
            tool_use("files.writeFile('a', 'x')", "toolu_01X"),
            {"type": "tool_use", "id": "toolu_01Y", "name": "read_file", "input": {"path": "a"}},
            usage_body=usage(100, 30, cache_read=2000, cache_write_5m=300, cache_write_1h=50),
            model="claude-sonnet-5-5",
        )
    )
    reply = connect_anthropic(model="claude-sonnet-5-5", pricing="claude-sonnet-5-5").complete(a_request())
    assert reply.text == "Here is the program."
    assert reply.calls == (
        ToolCall("toolu_01X", "submit_program", {"program": "files.writeFile('a', 'x')"}),
        ToolCall("toolu_01Y", "read_file", {"path": "a"}),
    )
    assert reply.usage == Usage(
        2450, 30, cache_read_tokens=2000, cache_write_tokens=350, cache_write_1h_tokens=50
    )
    assert (reply.model, reply.response_model) == ("claude-sonnet-5-5", "claude-sonnet-5-5")
    expected = (100 * 2.0 + 2000 * 0.2 + 300 * 2.5 + 50 * 4.0 + 30 * 10.0) / 1_000_000
    assert reply.cost_usd == pytest.approx(expected)


def test_a_turn_that_held_thinking_goes_back_as_it_came_on_every_later_request(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    thinking = {"type": "thinking", "thinking": "Look first.", "signature": "EqQBCkgIARABGAIiQ"}
    anthropic_server.script(
        message(thinking, text("Looking."), tool_use("a()", "toolu_T1")),
        program_message("b()", "toolu_T2"),
        program_message("c()", "toolu_T3"),
    )
    client = connect_anthropic()
    first = client.complete(a_request())
    window = [
        Message("user", "Task\n----\nwrite a.txt"),
        Message("assistant", first.text, tool_calls=first.calls),
        Message("tool", "ok", tool_call_id="toolu_T1"),
    ]
    second = client.complete(a_request(*window))
    window += [
        Message("assistant", "", tool_calls=second.calls),
        Message("tool", "ok", tool_call_id="toolu_T2"),
    ]
    client.complete(a_request(*window))
    sent = [_unmarked(r.json["messages"][1]) for r in anthropic_server.received[1:]]
    assert (
        sent[0]
        == sent[1]
        == {
            "role": "assistant",
            "content": [
                thinking,
                {"type": "text", "text": "Looking."},
                {"type": "tool_use", "id": "toolu_T1", "name": "submit_program", "input": {"program": "a()"}},
            ],
        }
    )
    assert first.text == "Looking."


def test_cache_reads_the_api_did_not_report_are_unknown_not_zero(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(message(tool_use("1"), usage_body={"input_tokens": 40, "output_tokens": 5}))
    reply = connect_anthropic().complete(a_request())
    assert reply.usage == Usage(40, 5, cache_read_tokens=None)


def test_an_unpriced_model_costs_nothing_known(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(program_message("1"))
    assert connect_anthropic(model="claude-unknown").complete(a_request()).cost_usd is None


def test_a_reply_cut_at_max_tokens_is_model_length_capped_and_keeps_its_usage_and_cost(
    anthropic_server: ChatServer, connect_anthropic: Connect
) -> None:
    anthropic_server.script(
        message(tool_use("let x ="), stop_reason="max_tokens", usage_body=usage(1000, 8192))
    )
    with pytest.raises(ModelError) as caught:
        connect_anthropic(model="claude-haiku-4-5", pricing="claude-haiku-4-5").complete(a_request())
    assert caught.value.type is ErrorType.MODEL_LENGTH_CAPPED
    assert caught.value.usage == Usage(1000, 8192, cache_read_tokens=0)
    assert caught.value.cost_usd == pytest.approx((1000 * 1.0 + 8192 * 5.0) / 1_000_000)
    assert len(anthropic_server.received) == 1


def test_a_refused_pin_is_resent_at_once_on_auto_byte_for_byte_and_remembered(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator
) -> None:
    memory = ToolChoiceMemory()
    anthropic_server.script(
        api_error(400, "invalid_request_error", REFUSAL), program_message("1"), program_message("2")
    )
    client = connect_anthropic(memory=memory)
    client.complete(a_request())
    client.complete(a_request())
    first, second, third = anthropic_server.received
    assert first.json["tool_choice"] == PINNED
    assert (second.json["tool_choice"], third.json["tool_choice"]) == ({"type": "auto"}, {"type": "auto"})
    assert second.raw == first.raw.replace(
        b'"tool_choice":{"type":"tool","name":"submit_program"}', b'"tool_choice":{"type":"auto"}'
    )
    assert operator.sleeps == []
    [(message_, fields)] = operator.at("warn")
    assert "forcing tool use is not supported" in message_ and fields["model"] == "anthropic:claude-test-4"


def test_an_unrelated_400_is_model_rejected_and_not_retried(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator
) -> None:
    anthropic_server.script(api_error(400, "invalid_request_error", "messages: roles must alternate"))
    with pytest.raises(ModelError) as caught:
        connect_anthropic().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_REJECTED
    assert "HTTP 400: messages: roles must alternate" in caught.value.message
    assert (len(anthropic_server.received), operator.lines) == (1, [])


@pytest.mark.parametrize(("status", "kind"), [(401, "authentication_error"), (403, "permission_error")])
def test_a_refused_key_is_model_auth_and_is_not_retried(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator, status: int, kind: str
) -> None:
    anthropic_server.script(api_error(status, kind, "invalid x-api-key"))
    with pytest.raises(ModelError) as caught:
        connect_anthropic().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_AUTH
    assert caught.value.message == f"HTTP {status}: invalid x-api-key"
    assert (len(anthropic_server.received), operator.lines) == (1, [])


def test_a_rate_limit_waits_what_retry_after_asks_then_succeeds(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator
) -> None:
    anthropic_server.script(
        api_error(
            429, "rate_limit_error", "Number of requests has exceeded your rate limit", {"retry-after": "7"}
        ),
        program_message("1"),
    )
    reply = connect_anthropic().complete(a_request())
    assert reply.calls[0].arguments == {"program": "1"}
    assert operator.sleeps == [7.0]
    [(line, fields)] = operator.at("warn")
    assert "HTTP 429: Number of requests has exceeded your rate limit" in line
    assert (fields["status"], fields["symptom"]) == (429, "rate_limited")
    assert "errorType" not in fields  # one attempt of four: nothing is exhausted yet
    assert anthropic_server.received[0].raw == anthropic_server.received[1].raw


def test_server_errors_and_overload_that_outlast_the_schedule_are_model_retry_exhausted(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator
) -> None:
    anthropic_server.script(
        api_error(500, "api_error", "Internal server error"),
        api_error(529, "overloaded_error", "Overloaded"),
        api_error(500, "api_error", "Internal server error"),
    )
    with pytest.raises(ModelError) as caught:
        connect_anthropic(attempts=3).complete(a_request())
    assert caught.value.type is ErrorType.MODEL_RETRY_EXHAUSTED
    assert caught.value.message == "HTTP 500: Internal server error (gave up after 3 attempts)"
    assert operator.sleeps == [1.0, 2.0]  # 1 s, then twice the last


@pytest.mark.parametrize(
    "broken",
    [DROPPED, truncated(program_message("1"), 40)],
    ids=["dropped-connection", "truncated-body"],
)
def test_a_cut_connection_or_a_truncated_body_is_retried(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator, broken: Answer
) -> None:
    anthropic_server.script(broken, program_message("2"))
    reply = connect_anthropic().complete(a_request())
    assert reply.calls[0].arguments == {"program": "2"}
    [(line, fields)] = operator.at("warn")
    assert "could not reach the endpoint" in line and fields["symptom"] == "connection_failed"


def test_a_request_that_times_out_is_model_timeout_at_once_never_retried(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator
) -> None:
    anthropic_server.script(*(Answer(200, b"{}", delay_secs=1.0) for _ in range(2)))
    with pytest.raises(ModelError) as caught:
        connect_anthropic(attempts=2, timeout_secs=0.2).complete(a_request())
    assert caught.value.type is ErrorType.MODEL_TIMEOUT
    assert caught.value.message == "the request timed out after 0.2 s"
    assert (len(anthropic_server.received), operator.sleeps) == (1, [])


@pytest.mark.parametrize(
    "answer",
    [
        Answer(200, b"<html>gateway says hi</html>", {"Content-Type": "text/html"}),
        Answer(200, b'{"type": "message", "content": [', {"Content-Type": "application/json"}),
        json_answer(200, {"type": "message", "content": "not a list"}),
        json_answer(200, {"type": "message", "content": [{"type": "tool_use", "id": "t", "input": {}}]}),
    ],
    ids=["html", "broken-json", "content-not-a-list", "call-without-name"],
)
def test_a_body_that_cannot_be_read_is_model_parse_and_is_not_retried(
    anthropic_server: ChatServer, connect_anthropic: Connect, answer: Answer
) -> None:
    anthropic_server.script(answer)
    with pytest.raises(ModelError) as caught:
        connect_anthropic().complete(a_request())
    assert caught.value.type is ErrorType.MODEL_PARSE
    assert len(anthropic_server.received) == 1


def _thread(size: int) -> tuple[Message, ...]:
    """A task, then turns of (assistant call, receipt, user feedback) until `size` messages."""
    messages = [Message("user", "Task\n----\nbuild it")]
    turn = 0
    while len(messages) < size:
        turn += 1
        call = ToolCall(f"toolu_{turn}", "submit_program", {"program": f"step({turn})"})
        step = [
            Message("assistant", "", tool_calls=(call,)),
            Message("tool", "ok", tool_call_id=call.id),
            Message("user", f"Runtime error\n----\nturn {turn}"),
        ]
        messages.extend(step[: size - len(messages)])
    return tuple(messages)


def _marks(body: dict[str, object]) -> dict[int, object]:
    """Message index -> the cache marker riding its last block."""
    messages = body["messages"]
    assert isinstance(messages, list)
    marks: dict[int, object] = {}
    for index, wire in enumerate(messages):
        blocks = wire["content"]
        assert all("cache_control" not in b for b in blocks[:-1])
        if "cache_control" in blocks[-1]:
            marks[index] = blocks[-1]["cache_control"]
    return marks


def _unmarked(wire: dict[str, object]) -> dict[str, object]:
    blocks = wire["content"]
    assert isinstance(blocks, list)
    return {**wire, "content": [{k: v for k, v in b.items() if k != "cache_control"} for b in blocks]}


def test_a_request_is_given_no_more_than_is_left_of_the_runs_time(
    anthropic_server: ChatServer, connect_anthropic: Connect, operator: Operator
) -> None:
    anthropic_server.script(Answer(200, b"{}", delay_secs=5.0))
    with pytest.raises(ModelError) as caught:
        connect_anthropic(timeout_secs=900.0, run_left=lambda: 0.3).complete(a_request())
    assert caught.value.message == "the request timed out after 0.3 s"
    assert (len(anthropic_server.received), operator.sleeps) == (1, [])
