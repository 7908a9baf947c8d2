"""The window: a fork copies it and a successor takes it over with the system-prompt slot empty
(seed 003, "Transfer"; seed 000, "Across a succession")."""

from __future__ import annotations

from gg.providers.base import Message, ToolCall
from gg.state.window import Band, DocsView, FileView, Region, TextView, ViewKind, Window

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


def _turns(window: Window, *contents: str) -> None:
    """One turn per content: its reply, a receipt, and a result."""
    for number, content in enumerate(contents, start=window.turn + 1):
        window.begin_turn(number)
        call = ToolCall(f"call_{number}", "submit_program", {"program": "..."})
        window.push(Message("assistant", "", tool_calls=(call,)))
        window.push(Message("tool", "ok", tool_call_id=f"call_{number}"))
        window.push(Message("user", content))


def test_each_message_is_marked_with_the_turn_it_was_pushed_in_and_its_band() -> None:
    window = Window(system="s")
    window.brief(TASK)
    _turns(window, "first result", "second result")
    assert [(mark.turn, mark.band) for mark in window.marks] == [
        (0, Band.BRIEF),
        (1, Band.THREAD),
        (1, Band.THREAD),
        (1, Band.THREAD),
        (2, Band.THREAD),
        (2, Band.THREAD),
        (2, Band.THREAD),
    ]


def test_a_changed_block_is_pinned_at_the_tail_and_the_one_it_supersedes_becomes_thread() -> None:
    window = Window(system="s")
    window.brief(TASK)
    assert window.pin(Band.TASKS, "Tasks\n----\none") is True
    assert window.pin(Band.TASKS, "Tasks\n----\none") is False  # byte-identical: nothing pushed
    assert window.pin(Band.TASKS, None) is False
    _turns(window, "a result")
    assert window.pin(Band.TASKS, "Tasks\n----\ntwo") is True
    assert window.pinned(Band.TASKS) == "Tasks\n----\ntwo"
    assert window.messages[-1].content == "Tasks\n----\ntwo"
    pins = [(m.content, mark.pinned) for mark, m in window.held() if mark.band is Band.TASKS]
    assert pins == [("Tasks\n----\none", False), ("Tasks\n----\ntwo", True)]


def test_a_band_pinned_under_keys_holds_one_current_block_per_key() -> None:
    window = Window(system="s")
    assert window.pin(Band.SKILL, "guide v1", key="guide") and window.pin(Band.SKILL, "torque", key="torque")
    assert window.pin(Band.SKILL, "guide v1", key="guide") is False
    assert window.pin(Band.SKILL, "guide v2", key="guide") is True
    current = [(mark.key, m.content) for mark, m in window.held() if mark.pinned]
    assert current == [("torque", "torque"), ("guide", "guide v2")]
    assert window.pinned(Band.SKILL, "torque") == "torque" and window.pinned(Band.SKILL) is None


def test_a_rebuilt_block_replaces_the_one_it_supersedes_outright_and_none_leaves_no_block() -> None:
    window = Window(system="s")
    window.brief(TASK)
    window.pin(Band.MEMORY, "Memories\n----\none")
    _turns(window, "a result")
    window.repin(Band.MEMORY, "Memories\n----\ntwo")
    assert [m.content for m in window.messages if "Memories" in m.content] == ["Memories\n----\ntwo"]
    assert window.pinned(Band.MEMORY) == "Memories\n----\ntwo"
    window.repin(Band.MEMORY, None)
    assert window.pinned(Band.MEMORY) is None
    assert not any("Memories" in m.content for m in window.messages)


def test_the_current_pin_crosses_a_compaction_verbatim_once_after_the_restarted_thread() -> None:
    window = Window(system="s")
    window.brief(TASK)
    window.pin(Band.TASKS, "Tasks\n----\none")
    _turns(window, "a result")
    window.pin(Band.TASKS, "Tasks\n----\ntwo")
    window.restart([TASK, Message("user", "Summary\n----\nso far")])
    assert [m.content for m in window.messages] == [TASK.content, "Summary\n----\nso far", "Tasks\n----\ntwo"]
    assert window.pinned(Band.TASKS) == "Tasks\n----\ntwo"
    assert [mark.band for mark in window.marks] == [Band.BRIEF, Band.THREAD, Band.TASKS]


def test_a_fork_carries_the_marks_the_pins_and_the_turn() -> None:
    window = Window(system="s")
    window.brief(TASK)
    _turns(window, "a result")
    window.pin(Band.TASKS, "Tasks\n----\none")
    copy = window.fork()
    assert copy.marks == window.marks and copy.turn == 1
    assert copy.pinned(Band.TASKS) == "Tasks\n----\none"
    copy.pin(Band.TASKS, "Tasks\n----\ncopy's")
    assert window.pinned(Band.TASKS) == "Tasks\n----\none"


def test_removing_turns_takes_them_whole_but_never_the_turn_in_progress_the_brief_the_pins_or_docs() -> None:
    window = Window(system="s")
    window.brief(TASK)
    _turns(window, "first result")
    window.push_view(DocsView("gg.files.readFile", "docs body"))
    window.pin(Band.TASKS, "Tasks\n----\none")
    _turns(window, "second result", "third result")
    window.take_unrecorded()
    taken = window.remove_turns(lambda turn: turn in (0, 1, 3))
    assert [m.content for _, m in taken] == ["", "ok", "first result"]
    assert [m.content for m in window.messages] == [
        TASK.content,
        "Documentation: gg.files.readFile\n----\ndocs body",
        "Tasks\n----\none",
        "",
        "ok",
        "second result",
        "",
        "ok",
        "third result",
    ]
    assert len(window.take_unrecorded()) == len(window.messages)  # the next request records it all


def test_view_messages_are_marked_with_what_they_show_and_leave_by_selector() -> None:
    window = Window(system="s")
    window.push_view(TextView("notes", "n"))
    window.push_view(FileView("a.txt", Region(0, 2), 1, 2, 9, "x\ny\n"))
    window.push_view(FileView("a.txt", Region(4, None), 5, 9, 9, "z\n"))
    window.push_view(DocsView("gg.files.readFile", "docs"))
    assert [(m.view.kind, m.view.selector) for m in window.marks if m.view] == [
        (ViewKind.TEXT, "notes"),
        (ViewKind.FILE, "a.txt"),
        (ViewKind.FILE, "a.txt"),
        (ViewKind.DOCS, "gg.files.readFile"),
    ]
    assert window.marks[1].view is not None and window.marks[1].view.region == Region(0, 2)
    gone = window.remove_views(lambda view: view.selector in ("a.txt", "gg.files.readFile"))
    assert len(gone) == 2
    assert [m.content.split("\n")[0] for m in window.messages] == [
        "View: notes",
        "Documentation: gg.files.readFile",
    ]


def test_the_messages_of_turns_a_to_b_are_answered_with_their_marks() -> None:
    window = Window(system="s")
    window.brief(TASK)
    _turns(window, "first", "second", "third")
    assert [m.content for _, m in window.in_turns(2, 3)] == ["", "ok", "second", "", "ok", "third"]
    assert [m.content for _, m in window.in_turns(0, 0)] == [TASK.content]
    assert window.in_turns(5, 9) == []
