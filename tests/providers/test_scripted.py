"""The scripted client used by tests of the loop."""

from __future__ import annotations

import pytest

from gg.outcome import ErrorType
from gg.providers.base import ModelError, Reply, Request, Usage, submit_program_tool
from gg.providers.replay import JournalExhausted
from gg.providers.scripted import ScriptedClient, program_reply

REQUEST = Request("sys", (), submit_program_tool("JavaScript"), None, None)


def test_a_list_script_replies_in_order_raises_its_errors_and_counts_calls() -> None:
    client = ScriptedClient([program_reply("a"), ModelError(ErrorType.MODEL_TIMEOUT, "slow")])
    assert client.complete(REQUEST).calls[0].arguments == {"program": "a"}
    with pytest.raises(ModelError):
        client.complete(REQUEST)
    with pytest.raises(JournalExhausted) as caught:
        client.complete(REQUEST)
    assert caught.value.message == "the script ended after 2 replies; the session had not ended"
    assert client.calls == 3


def test_a_function_script_is_given_the_request_and_its_index_from_zero() -> None:
    seen: list[int] = []

    def script(request: Request, index: int) -> Reply:
        seen.append(index)
        return program_reply(f"turn {index}", turn=index + 1)

    client = ScriptedClient(script)
    client.complete(REQUEST)
    reply = client.complete(REQUEST)
    assert seen == [0, 1]
    assert reply.calls[0].id == "call_2_1"
    assert client.requests == [REQUEST, REQUEST]


def test_program_reply_makes_one_submit_program_call_per_program() -> None:
    reply = program_reply("a", "b", text="two", usage=Usage(1, 2))
    assert [(c.id, c.name, c.arguments) for c in reply.calls] == [
        ("call_1_1", "submit_program", {"program": "a"}),
        ("call_1_2", "submit_program", {"program": "b"}),
    ]
    assert (reply.text, reply.usage) == ("two", Usage(1, 2))
