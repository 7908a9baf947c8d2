"""A command's output as a program reads it: the last 16 KiB of the merged stream, made readable."""

from __future__ import annotations

from gg.sdk.command.output import Output, OutputTail, readable

KiB = 1024


def test_output_under_the_cap_is_kept_whole() -> None:
    tail = OutputTail()
    tail.feed(b"one\n")
    tail.feed(b"two\n")
    assert tail.shown() == Output("one\ntwo\n", 0)
    assert not tail.shown().truncated


def test_only_the_last_16_kib_are_kept_and_the_dropped_bytes_are_counted() -> None:
    tail = OutputTail()
    for index in range(100):
        tail.feed(f"{index:04d}".encode() * 256)  # 1 KiB each
    shown = tail.shown()
    assert len(shown.text.encode()) == 16 * KiB and shown.truncated
    assert shown.text.startswith("0084") and shown.text.endswith("0099")
    assert shown.dropped_bytes == 84 * KiB


def test_a_hundred_megabytes_fed_in_chunks_never_hold_more_than_twice_the_cap() -> None:
    tail, chunk = OutputTail(), b"x" * (64 * KiB)
    most = 0
    for _ in range(100 * 1024 * 1024 // len(chunk)):
        tail.feed(chunk)
        most = max(most, tail.held)
    assert most <= 2 * 16 * KiB and tail.total == 100 * 1024 * 1024


def test_a_cut_through_a_character_starts_at_the_next_one() -> None:
    tail = OutputTail(cap=6)
    tail.feed("aé€😀".encode())  # 1 + 2 + 3 + 4 bytes: the last six begin inside the €
    shown = tail.shown()
    assert shown == Output("😀", 6)


def test_bytes_that_are_not_utf8_become_replacement_characters() -> None:
    assert readable(b"ok \xff\xfe done") == "ok \ufffd\ufffd done"


def test_escape_sequences_are_removed() -> None:
    colours = b"\x1b[1;31merror\x1b[0m: \x1b[38;5;208mboom\x1b[m"
    assert readable(colours) == "error: boom"
    assert readable(b"\x1b]0;a title\x07x\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\") == "xlink"
    assert readable(b"\x1b(Bplain\x1b=\x1b>") == "plain"
    assert readable(b"\x1bP1$r0m\x1b\\after") == "after"


def test_an_unterminated_string_sequence_loses_only_its_lead_in() -> None:
    assert readable(b"\x1b]0;no end here") == "0;no end here"


def test_line_ends_are_newlines_and_other_controls_show_as_pictures() -> None:
    assert readable(b"a\r\nb\rc\n") == "a\nb\nc\n"
    assert readable(b"tab\there\x00\x07\x08\x7f") == "tab\there\u2400\u2407\u2408\u2421"
    assert readable("c1 \u009b31m".encode()) == "c1 \ufffd31m"
    assert readable(b"lone \x1b") == "lone \u241b"


def test_readable_output_is_never_longer_than_the_cap() -> None:
    tail = OutputTail(cap=64)
    tail.feed(b"\x00" * 200)  # each NUL becomes a three-byte picture
    shown = tail.shown()
    assert len(shown.text.encode()) <= 64 and set(shown.text) == {"\u2400"}
    assert shown.dropped_bytes == 200 - len(shown.text)


def test_the_end_of_an_output_is_cut_at_a_character() -> None:
    output = Output("abc€def", 10)
    assert output.last(100) is output
    assert output.last(4) == Output("def", 10 + 6)
    assert output.last(5) == Output("def", 16)


def test_a_clipped_output_starts_at_a_whole_line_and_counts_the_lines_before_it() -> None:
    lines = [f"{n}-report.txt\n" for n in range(1, 20001)]
    tail = OutputTail()
    for line in lines:
        tail.feed(line.encode())
    shown = tail.shown()
    first = shown.text.splitlines()[0]
    assert first + "\n" in lines and shown.text.endswith("20000-report.txt\n")
    assert shown.dropped_lines == lines.index(first + "\n")
    assert shown.dropped_bytes == len("".join(lines[: shown.dropped_lines]))
    assert shown.dropped_lines + len(shown.text.splitlines()) == 20000


def test_every_line_end_counts_once_even_split_between_chunks() -> None:
    tail = OutputTail(cap=8)
    for chunk in (b"one\r", b"\ntwo\rthree\n", b"four\r\n", b"five\n"):
        tail.feed(chunk)
    assert tail.shown() == Output("five\n", len("one\r\ntwo\rthree\nfour\r\n"), 4)


def test_a_tail_whose_first_kept_byte_begins_a_line_loses_nothing_more() -> None:
    tail = OutputTail(cap=8)
    tail.feed(b"abcdefgh\n")
    tail.feed(b"1234567\n")
    assert tail.shown() == Output("1234567\n", 9, 1)


def test_the_end_of_an_output_is_cut_at_the_start_of_a_line() -> None:
    assert Output("a\nbc\ndef\n", 3, 1).last(6) == Output("def\n", 3 + 5, 1 + 2)


def test_a_chunk_longer_than_the_cap_is_not_joined_to_what_came_before_it() -> None:
    """A loaded machine reads a pipe in big chunks: the line cut through at the start of the last
    16 KiB is dropped even when the chunk before it ended a line."""
    numbers = "".join(f"{n}\n" for n in range(1, 20001)).encode()
    tail = OutputTail()
    tail.feed(b"first\n")
    tail.feed(numbers)
    shown = tail.shown()
    assert shown.text.startswith("17271\n") and shown.dropped_lines == 1 + 17270
