"""A program that finds no Worker booted for it waits for one, and the guest says so: `waiting`
at once, `started` with the time it waited, which the pool gives back to the program's clock
(`Deadline.hold` and `Deadline.begin`, tests/sandbox/test_deadline.py)."""

from __future__ import annotations

from typing import Any

from jsworld import registry

from gg.sandbox.deno.bundle import build_bundle
from gg.sandbox.deno.pool import DenoPool, start
from gg.sandbox.deno.wire import DenoProcess, run_message

HEAP_MB = 256
SMALLER_HEAP_MB = 64  # the spares were booted for HEAP_MB: a run asking for less waits for a boot
ALIVE = 'const alive = "yes";'


def messages_until_done(process: DenoProcess, run_id: int) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["t"] != "done":
        message = process.receive(30.0)
        if message.get("id") == run_id:
            seen.append(message)
    return seen


def test_a_run_with_no_worker_booted_for_it_is_told_waiting_then_started_with_its_wait() -> None:
    pool = DenoPool(build_bundle(registry()))
    process = start(build_bundle(registry()), HEAP_MB, pool.data_limit(HEAP_MB))
    try:
        process.send(run_message(1, ALIVE, "js", (), SMALLER_HEAP_MB))
        seen = messages_until_done(process, 1)
    finally:
        process.kill()
    assert [message["t"] for message in seen] == ["waiting", "started", "done"]
    assert seen[1]["waitedMs"] > 0
    assert seen[2]["status"] == "ok"


def test_a_run_with_a_worker_booted_for_it_begins_at_once_unannounced() -> None:
    pool = DenoPool(build_bundle(registry()))
    process = start(build_bundle(registry()), HEAP_MB, pool.data_limit(HEAP_MB))
    try:
        process.send(run_message(1, ALIVE, "js", (), HEAP_MB))
        seen = messages_until_done(process, 1)
    finally:
        process.kill()
    assert [message["t"] for message in seen] == ["done"]
