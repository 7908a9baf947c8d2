"""A run begins on a booted Worker, and the guest says when: `started` (with the time it waited,
when it found none booted and said `waiting` at once), after which the program goes to its
Worker only on Python's `go`; the pool gives the wait back to the program's clock
(`Deadline.hold` and `Deadline.begin`, tests/sandbox/arms/test_deadline.py) and sets the run's data
limit in between. Spares are booted again only on `rest`."""

from __future__ import annotations

from typing import Any

from jsworld import registry

from gg.sandbox.deno.bundle import build_bundle
from gg.sandbox.deno.pool import DenoPool, start
from gg.sandbox.deno.wire import DenoProcess, run_message

HEAP_MB = 1024
ALIVE = 'const alive = "yes";'


def messages_until_done(process: DenoProcess, run_id: int) -> list[dict[str, Any]]:
    """What the guest said about run `run_id`, answering its `started` with `go`."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["t"] != "done":
        message = process.receive(30.0)
        if message.get("id") == run_id:
            seen.append(message)
        if message.get("t") == "started":
            process.send({"t": "go", "id": run_id})
    return seen


def started_process() -> DenoProcess:
    pool = DenoPool(build_bundle(registry()))
    return start(build_bundle(registry()), HEAP_MB, pool.data_limit(HEAP_MB))


def test_a_run_is_started_then_runs_on_go() -> None:
    """(A spare still booting when the run comes is waited for, so `waiting` may come first.)"""
    process = started_process()
    try:
        process.send(run_message(1, ALIVE, "js", ()))
        seen = messages_until_done(process, 1)
    finally:
        process.kill()
    assert [message["t"] for message in seen][-2:] == ["started", "done"]
    assert seen[-1]["status"] == "ok"


def test_a_run_after_one_never_told_to_rest_finds_no_spare_and_waits_for_a_boot() -> None:
    """Without `rest` the guest boots no spare after the first run, so the second waits."""
    process = started_process()
    try:
        process.send(run_message(1, ALIVE, "js", ()))
        messages_until_done(process, 1)
        process.send(run_message(2, ALIVE, "js", ()))
        seen = messages_until_done(process, 2)
    finally:
        process.kill()
    assert [message["t"] for message in seen] == ["waiting", "started", "done"]
    assert seen[1]["waitedMs"] > 0 and seen[2]["status"] == "ok"
