"""The window: a fork copies it and a successor takes it over with the system-prompt slot empty
(seed 003, "Transfer"; seed 000, "Across a succession")."""

from __future__ import annotations

from gg.providers.base import Message, ToolCall
from gg.state.window import Window

TASK = Message("user", "Task\n----\ncount the specs")


def _window() -> Window:
    window = Window(system="You are the root agent.")
    window.brief(TASK)
    window.push(Message("assistant", "reading"))
    window.push(Message("tool", "k3p9", tool_call_id="call_1"))
    return window


def test_a_fork_holds_the_whole_thread_and_the_task_with_the_system_prompt_slot_empty() -> None:
    original = _window()
    copy = original.fork()
    assert copy.system is None and original.system == "You are the root agent."
    assert copy.messages == original.messages and copy.task == TASK


def test_a_fork_and_its_original_diverge() -> None:
    original = _window()
    copy = original.fork()
    copy.push(Message("user", "only the copy reads this"))
    original.push(Message("user", "only the original reads this"))
    assert copy.messages[-1].content == "only the copy reads this"
    assert original.messages[-1].content == "only the original reads this"
    assert len(copy.messages) == len(original.messages) == 4


def test_a_new_holder_has_recorded_nothing_of_the_window_yet() -> None:
    original = _window()
    original.take_unrecorded()
    assert original.take_unrecorded() == []
    assert len(original.fork().take_unrecorded()) == 3
    assert len(original.adopt().take_unrecorded()) == 3


def test_a_successor_takes_over_the_thread_with_its_own_slot_still_to_fill() -> None:
    successor = _window().adopt()
    assert successor.system is None
    assert [m.content for m in successor.messages] == [TASK.content, "reading", "k3p9"]
    assert successor.task == TASK


def test_every_text_entering_the_window_is_made_well_formed_and_the_rest_is_kept() -> None:
    window = Window(system="system \ud800")
    window.brief(Message("user", "Task\n----\ntask \ud83d"))
    call = ToolCall("call \udc00", "submit_program", {"program": "p \ud83d", "n": [1, "\ud83d"]})
    window.push(Message("assistant", "text \ud83d", tool_calls=(call,)))
    window.push(Message("tool", "k3p9", tool_call_id="call \udc00"))
    window.restart([*window.messages, Message("user", "Summary\n----\nsummary \ud83d")])
    assert window.system == "system \ufffd" and window.task == Message("user", "Task\n----\ntask \ufffd")
    assert [m.content for m in window.messages] == [
        "Task\n----\ntask \ufffd",
        "text \ufffd",
        "k3p9",
        "Summary\n----\nsummary \ufffd",
    ]
    assert window.messages[1].tool_calls == (
        ToolCall("call \ufffd", "submit_program", {"program": "p \ufffd", "n": [1, "\ufffd"]}),
    )
    assert window.messages[2].tool_call_id == "call \ufffd"
    successor = window.adopt()
    successor.system = "successor \udfff"  # a new holder fills its own slot
    assert successor.system == "successor \ufffd"


def test_a_well_formed_message_enters_the_window_as_the_same_object() -> None:
    message = Message("assistant", "plain é and 🙂")
    window = Window(system=None)
    window.push(message)
    assert window.messages[0] is message
