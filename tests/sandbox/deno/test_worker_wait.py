"""A run begins on a booted Worker, and the guest says when: `started` (with the time it waited,
when it found none booted and said `waiting` at once), after which the program goes to its
Worker only on Python's `go`; the pool gives the wait back to the program's clock
(`Deadline.hold` and `Deadline.begin`, tests/sandbox/arms/test_deadline.py) and sets the run's data
limit in between. Spares are booted again only on `rest`, and a run that finds none has one
booted for it. A running program's calls and lines come over the run's own pipes, never the
main channel."""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Iterator
from typing import Any

from jsworld import registry

from gg.sandbox.deno.bundle import build_bundle
from gg.sandbox.deno.channel import CHANNEL_FOLDER, RunChannel
from gg.sandbox.deno.pool import DenoPool, start
from gg.sandbox.deno.wire import DenoProcess, run_message

HEAP_MB = 1024
SPARE_WORKERS = 4  # the spares a guest keeps (gg.sandbox.deno.workers), pinned here
ALIVE = 'const alive = "yes";'


def messages_until_done(process: DenoProcess, run_id: int, channel: RunChannel) -> list[dict[str, Any]]:
    """What the guest said about run `run_id`, answering its `started` with `go`."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["t"] != "done":
        message = process.receive(30.0)
        if message.get("id") == run_id:
            seen.append(message)
        if message.get("t") == "started":
            process.send({"t": "go", "id": run_id})
    return seen


@contextlib.contextmanager
def started_process() -> Iterator[DenoProcess]:
    pool = DenoPool(build_bundle(registry()))
    process = start(build_bundle(registry()), HEAP_MB, pool.data_limit(HEAP_MB))
    try:
        yield process
    finally:
        process.kill()


def channel_of(process: DenoProcess, run_id: int) -> RunChannel:
    return RunChannel(os.path.join(process.process.directory, CHANNEL_FOLDER), run_id)


def ran(process: DenoProcess, run_id: int, source: str = ALIVE) -> list[dict[str, Any]]:
    channel = channel_of(process, run_id)
    try:
        process.send(run_message(run_id, source, "js", (), channel.paths))
        return messages_until_done(process, run_id, channel)
    finally:
        channel.close()


def test_a_run_is_started_then_runs_on_go() -> None:
    """(A spare still booting when the run comes is waited for, so `waiting` may come first.)"""
    with started_process() as process:
        seen = ran(process, 1)
    assert [message["t"] for message in seen][-2:] == ["started", "done"]
    assert seen[-1]["status"] == "ok"


def test_runs_never_told_to_rest_each_wait_for_a_worker_booted_for_them() -> None:
    """Spares are booted only at rest: once runs come with no `rest` between them, those the
    spares booted beforehand do not cover each say `waiting`, with a Worker booting for them,
    and start on it."""
    runs = SPARE_WORKERS + 2
    with started_process() as process:
        seen = [ran(process, run_id) for run_id in range(1, runs + 1)]
    assert all(messages[-1]["status"] == "ok" for messages in seen)
    assert [m["t"] for m in seen[-1]] == ["waiting", "started", "done"]
    assert seen[-1][0]["booting"] is True and seen[-1][1]["waitedMs"] > 0
    booted_for = [messages for messages in seen if messages[0]["t"] == "waiting" and messages[0]["booting"]]
    assert seen.index(booted_for[0]) <= SPARE_WORKERS
    assert booted_for == seen[seen.index(booted_for[0]) :], [messages[0] for messages in seen]


def test_a_programs_calls_and_lines_come_over_its_pipes_not_the_main_channel() -> None:
    source = 'import { views } from "gg";\nconsole.log("before");\nviews.openText("one", "two");\n'
    with started_process() as process:
        channel = channel_of(process, 1)
        try:
            process.send(run_message(1, source, "js", (), channel.paths))
            main: list[dict[str, Any]] = []
            while not main or main[-1]["t"] != "started":
                main.append(process.receive(30.0))
            process.send({"t": "go", "id": 1})
            piped: list[dict[str, Any]] = []
            while not piped or piped[-1]["t"] != "call":
                assert select.select([channel.fileno()], [], [], 30.0)[0]
                piped.extend(channel.messages())
            channel.reply(
                b'{"t":"reply","id":1,"ok":true,"value":null}', lambda: 30.0, process.channel.fileno()
            )
            main.append(process.receive(30.0))
            piped.extend(channel.messages())
        finally:
            channel.close()
        left = os.listdir(os.path.join(process.process.directory, CHANNEL_FOLDER))
    assert left == [], "the run's pipes are removed with it"
    assert [m["t"] for m in piped] == ["logs", "call", "end"]
    assert piped[0]["lines"] == ["before"]
    assert (piped[1]["op"], piped[1]["args"]) == ("views.open_text", {"label": "one", "body": "two"})
    assert [m["t"] for m in main][-2:] == ["started", "done"] and main[-1]["status"] == "ok"
    assert not any(m["t"] in ("call", "logs") for m in main)
