"""What one request costs its window, band by band (seed 003, "each turn reports what every module
costs the window"): characters per band, and the provider's measured tokens shared out by them."""

from __future__ import annotations

import json
from collections.abc import Callable

from gg.providers.base import Message, ToolCall, ToolSpec
from gg.state.window import Band, FileView, Region, Window
from gg.state.window.breakdown import BAND_OF, apportioned, band_chars, breakdown
from gg.telemetry.breakdown import ContextBand

TOOL = ToolSpec("submit_program", "run it", {"type": "object"})


def _window() -> Window:
    window = Window(system="sys!")
    window.brief(Message("user", "brief"))
    window.begin_turn(1)
    window.push(Message("assistant", "ab", tool_calls=(ToolCall("c1", "submit_program", {"program": "x"}),)))
    window.push(Message("tool", "ok", tool_call_id="c1"))
    window.push_view(FileView("a.txt", Region(), 1, 1, 1, "hello\n"))
    window.pin(Band.TASKS, "tasks!")
    window.pin(Band.SKILL, "skill body", key="guide")
    return window


def test_every_window_band_is_a_breakdown_band() -> None:
    assert set(BAND_OF) == set(Band)


def test_each_band_counts_the_characters_of_its_messages_and_an_empty_band_is_left_out() -> None:
    window = _window()
    view = next(m for mark, m in window.held() if mark.band is Band.VIEW)
    assert band_chars("sys!", TOOL, window) == {
        ContextBand.SYSTEM: 4,
        ContextBand.TOOLS: len("submit_program") + len("run it") + len('{"type": "object"}'),
        ContextBand.TASK: 5,
        ContextBand.THREAD: 2 + len('{"program": "x"}') + 2,
        ContextBand.VIEWS: len(view.content),
        ContextBand.TASK_LIST: 6,
        ContextBand.SKILL: 10,
    }


def test_unmeasured_requests_are_reported_in_characters() -> None:
    event = breakdown({ContextBand.SYSTEM: 4, ContextBand.TASK: 6}, 0)
    assert event.to_wire() == {
        "unit": "chars",
        "bands": [{"band": "System", "chars": 4}, {"band": "Task", "chars": 6}],
    }


def test_measured_tokens_are_shared_by_characters_and_add_up_to_the_measure() -> None:
    chars = {ContextBand.SYSTEM: 1, ContextBand.TASK: 1, ContextBand.THREAD: 1}
    assert apportioned(chars, 10) == {ContextBand.SYSTEM: 4, ContextBand.TASK: 3, ContextBand.THREAD: 3}
    event = breakdown({ContextBand.SYSTEM: 300, ContextBand.SKILL: 100}, 100).to_wire()
    assert event == {
        "unit": "tokens",
        "inputTokens": 100,
        "bands": [
            {"band": "System", "tokens": 75, "chars": 300},
            {"band": "Skill", "tokens": 25, "chars": 100},
        ],
    }


def _measured_whole(window: Window) -> dict[ContextBand, int]:
    """The window's bands measured message by message: content, and each call's arguments as JSON."""
    sizes = dict.fromkeys(ContextBand, 0)
    sizes[ContextBand.SYSTEM] = 4
    sizes[ContextBand.TOOLS] = len("submit_program") + len("run it") + len('{"type": "object"}')
    for mark, message in window.held():
        calls = sum(
            len(json.dumps(c.arguments, ensure_ascii=False, sort_keys=True)) for c in message.tool_calls
        )
        sizes[BAND_OF[mark.band]] += len(message.content) + calls
    return {band: size for band, size in sizes.items() if size}


def test_the_bands_follow_every_change_of_the_window_as_if_measured_whole() -> None:
    window = _window()
    steps: list[Callable[[], object]] = [
        lambda: window.begin_turn(2),
        lambda: window.push(Message("assistant", "é", tool_calls=(ToolCall("c2", "x", {"b": "ü", "a": 1}),))),
        lambda: window.pin(Band.TASKS, "tasks, changed"),
        lambda: window.pin(Band.SKILL, "another skill", key="other"),
        lambda: window.repin(Band.TASKS, "rebuilt"),
        lambda: window.remove_views(lambda view: True),
        lambda: window.remove_turns(lambda turn: turn == 1),
        lambda: window.restart([Message("user", "brief"), Message("user", "summary")]),
    ]
    for step in steps:
        step()
        assert band_chars("sys!", TOOL, window) == _measured_whole(window)
        assert band_chars("sys!", TOOL, window.fork()) == _measured_whole(window)
    assert window.pinned(Band.TASKS) == "rebuilt" and window.pinned(Band.SKILL, "other") == "another skill"
