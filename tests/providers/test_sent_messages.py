"""A request's messages are the window's list as it stood when the request was made, read without
a copy, and they stay so while the window grows and after messages leave it (issue 27, item 1)."""

from __future__ import annotations

import tracemalloc

import pytest

from gg.providers.base import Message
from gg.providers.sent_messages import SentMessages
from gg.state.window import Window


def _window(count: int) -> Window:
    window = Window(system="sys")
    for turn in range(1, count + 1):
        window.begin_turn(turn)
        window.push(Message("user", f"message {turn}"))
    return window


def test_a_requests_messages_stay_as_sent_while_the_window_grows_and_after_a_cut() -> None:
    window = _window(3)
    sent = SentMessages(window.messages)
    as_sent = tuple(window.messages)
    window.begin_turn(4)
    window.push(Message("user", "message 4"))
    assert len(window.messages) == 4 and sent == as_sent and len(sent) == 3
    window.remove_turns(lambda turn: turn == 2)
    window.restart([Message("user", "summary")])
    assert [m.content for m in window.messages] == ["summary"]
    assert [m.content for m in sent] == ["message 1", "message 2", "message 3"]


def test_the_messages_read_as_an_immutable_sequence_of_their_own() -> None:
    window = _window(3)
    sent = SentMessages(window.messages)
    window.push(Message("user", "later"))
    assert sent[0].content == "message 1" and sent[-1].content == "message 3"
    assert sent[1:] == (Message("user", "message 2"), Message("user", "message 3"))
    assert isinstance(sent[:], tuple) and len(sent[:]) == 3 and sent[::-2] == (sent[2], sent[0])
    assert sent[2:10] == (sent[2],) and sent[-9:1] == (sent[0],) and sent[5:] == ()
    assert sent == tuple(sent) and tuple(sent) == sent and sent != tuple(window.messages)
    assert hash(sent) == hash(tuple(sent))
    with pytest.raises(IndexError):
        sent[3]
    with pytest.raises(IndexError):
        sent[-4]


def test_a_thousand_requests_of_a_long_window_hold_no_copy_of_it() -> None:
    window = _window(10_000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        sent = [SentMessages(window.messages) for _ in range(1_000)]
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(sent) == 1_000 and all(len(one) == 10_000 for one in sent)
    assert grown < 1_000_000  # a copy each would be 1,000 x 10,000 references: 80 MB
