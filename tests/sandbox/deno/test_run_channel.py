"""A run's own pipes (`gg.sandbox.deno.channel`), written to from here as the Worker writes: a
call is taken with a read no larger than a pipe holds (64 KiB), and a line longer than that
still arrives whole, over several reads; a line reads as the JSON value it holds, and a call too
deep to read keeps its head."""

from __future__ import annotations

import json
import os
import select
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from gg.sandbox.deno.channel import RunChannel
from gg.sandbox.deno.wire import decode

PIPE_BYTES = 64 * 1024  # what a Linux pipe holds by default
CALL = b'{"t":"call","op":"files.echo","args":{"text":"7"}}\n'


def taken(channel: RunChannel) -> list[dict[str, Any]]:
    assert select.select([channel.fileno()], [], [], 30.0)[0]
    return channel.messages()


def test_taking_one_call_allocates_no_more_than_a_pipe_holds(tmp_path: Path) -> None:
    channel = RunChannel(str(tmp_path), 1)
    writer = os.open(channel.paths["calls"], os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(writer, CALL)
        tracemalloc.start()
        try:
            messages = taken(channel)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    finally:
        os.close(writer)
        channel.close()
    assert messages == [{"t": "call", "op": "files.echo", "args": {"text": "7"}}]
    assert peak < PIPE_BYTES + 8 * 1024, f"taking one call allocated {peak} bytes"


def test_a_line_longer_than_a_pipe_holds_arrives_whole(tmp_path: Path) -> None:
    text = "x" * (5 * PIPE_BYTES)
    line = json.dumps({"t": "call", "op": "files.echo", "args": {"text": text}}).encode() + b"\n"
    channel = RunChannel(str(tmp_path), 2)
    writer = os.open(channel.paths["calls"], os.O_WRONLY)
    thread = threading.Thread(target=os.write, args=(writer, line + CALL))
    thread.start()
    found: list[dict[str, Any]] = []
    try:
        while len(found) < 2:
            found.extend(taken(channel))
    finally:
        thread.join(30.0)
        os.close(writer)
        channel.close()
    assert [m["args"]["text"] for m in found] == [text, "7"]


def test_a_line_reads_as_its_value_with_or_without_blanks_and_nothing_may_follow_it() -> None:
    assert decode(b'{"t":"end"}') == {"t": "end"}
    assert decode(b' {"t": "end"} \r') == {"t": "end"}
    with pytest.raises(ValueError, match="Extra data"):
        decode(b'{"t":"end"}{"t":"end"}')
    with pytest.raises(ValueError, match="Expecting value"):
        decode(b" ")


def test_a_call_too_deep_to_read_keeps_its_head_and_loses_its_arguments() -> None:
    line = '{"t":"call","op":"tasks.note","args":{"value":' + "[" * 100_000 + "]" * 100_000 + "}}"
    assert decode(line.encode()) == {"t": "call", "op": "tasks.note", "args": None}
