"""What the Python worker keeps of a run: the tail of its printed lines and the program's own
frames of a failure."""

from __future__ import annotations

from dataclasses import dataclass

from gg.sandbox.monty.worker.capture import (
    HEAD_FRAMES,
    MAX_MESSAGE_CHARS,
    LibSource,
    Prints,
    Sources,
    collapsed,
    describe,
)


def test_printed_text_becomes_lines_keeping_the_newest() -> None:
    prints = Prints(max_lines=3, max_line_chars=10)
    prints("stdout", "a\nb")
    prints("stderr", "c\nd\ne")
    assert prints.finish() == ["bc", "d", "e"] and prints.dropped == 1  # `b` had no newline yet


def test_a_long_line_is_cut_and_marked_even_across_chunks() -> None:
    prints = Prints(max_lines=5, max_line_chars=4)
    prints("stdout", "ab")
    prints("stdout", "cdefgh\nxy\n")
    assert prints.finish() == ["abcd…", "xy"] and prints.dropped == 0


@dataclass(frozen=True)
class Frame:
    filename: str
    line: int
    column: int = 1
    function_name: str | None = "<module>"
    source_line: str | None = None


def test_frames_are_attributed_to_the_program_a_module_or_struck() -> None:
    lib = LibSource.of("counter", "x = 1\n\ndef boom():\n    return 1 / 0\n")
    sources = Sources(program=["import lib", "lib.counter.boom()"], prelude_spans=[("read_file", 10, 12)])
    sources.program_feed, sources.libs = "<python-input-2>", [lib]
    frames = [
        Frame("<python-input-2>", 2, 1, "<module>", "lib.counter.boom()"),
        Frame("<string>", 4, 12, "boom"),
        Frame("<string>", 11, 5, "read_file"),
        Frame("<python-input-0>", 1),
        Frame("<string>", 3, 1, "mine"),
    ]
    described = describe("error", "ZeroDivisionError: division by zero", "division by zero", frames, sources)
    assert described["type"] == "ZeroDivisionError" and described["struck"] == 2
    assert described["frames"] == [
        ["program.py", 2, 1, "<module>", "lib.counter.boom()", 0],
        ["lib/counter.py", 4, 12, "boom", "return 1 / 0", 0],
        ["<string>", 3, 1, "mine", "", 0],
    ]


def test_a_module_body_that_fails_while_loading_is_located_in_the_module() -> None:
    lib = LibSource.of("broken", "import gg\nVALUE = int('x')\n")
    sources = Sources(program=[], prelude_spans=[], loading=lib)
    frames = [Frame("<python-input-1>", 1), Frame("<string>", 3), Frame("<string>", 2, 9)]
    described = describe("error", "ValueError: bad", "bad", frames, sources)
    assert described["frames"] == [["lib/broken.py", 2, 9, "<module>", "VALUE = int('x')", 0]]
    assert described["struck"] == 2


def test_a_repeating_frame_is_collapsed_and_a_long_traceback_elided() -> None:
    frame = ["program.py", 2, 12, "f", "return f(n + 1)"]
    assert collapsed([["program.py", 5, 1, "<module>", "f(0)"], *[frame] * 10]) == [
        ["program.py", 5, 1, "<module>", "f(0)", 0],
        [*frame, 0],
        [*frame, 8],
    ]
    sources = Sources(
        program=[f"line {n}" for n in range(1, 40)], prelude_spans=[], program_feed="<python-input-1>"
    )
    frames = [Frame("<python-input-1>", n, 1, f"f{n}") for n in range(1, 31)]
    described = describe("error", "ValueError", "", frames, sources)
    assert (
        len(described["frames"]) == 12 and described["elided"] == 18 and described["elidedAt"] == HEAD_FRAMES
    )


def test_a_huge_message_is_cut_and_the_cut_counted() -> None:
    message = "m" * (MAX_MESSAGE_CHARS + 5)
    described = describe(
        "error", f"ValueError: {message}", message, [], Sources(program=[], prelude_spans=[])
    )
    assert described["type"] == "ValueError" and len(described["message"]) == MAX_MESSAGE_CHARS
    assert described["messageCut"] == 5
