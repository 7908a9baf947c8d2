"""One program's run as its Deno pool process is served: the guest's main channel says when the
run starts and ends, the run's own pipes (`gg.sandbox.deno.channel`) carry its calls and lines.

Rules kept here:
- until the guest says `started` the program waits for its engine, off its clock (a Worker
  booting for it, or holding the guest's main thread, costs it nothing); then its ceiling
  counts from that moment, the process is held to the run's memory allowance
  (`gg.sandbox.deno.memory`: its data limit, and its resident memory watched), and only then is
  the guest told to `go`;
- calls are served on the thread that runs the program, in the order the Worker makes them; a
  reply is written only while the program is within its deadline; the lines the program logs are
  handed to the run's `StreamedTail` as they come;
- the run is over on the guest's `done`: what the Worker wrote before it, up to its `end`, is
  read then and stands in the report; anything after `end` (a call from work the program left
  running) is never served;
- a guest that was stopped or lost has its pipe read for what it had written, up to the first
  unfinished line.
"""

from __future__ import annotations

import dataclasses
import select
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gg.sandbox.deno.channel import RunChannel
from gg.sandbox.deno.memory import allowance
from gg.sandbox.deno.wire import DenoProcess, EngineLost, arguments, reply_line
from gg.sandbox.execution import HostCalls
from gg.sandbox.job import GuestReport, report_of
from gg.sandbox.livelogs import StreamedTail
from gg.sandbox.watch import Watch


@dataclass(frozen=True)
class Held:
    """One run as the pool holds it: its id, its memory ceiling and its watch."""

    run_id: int
    ceiling_bytes: int
    watch: Watch


@dataclass
class Serving:
    """What serving one run takes: the run, its host, its lines so far, and its pipes; `ended`
    once the Worker said `end`."""

    held: Held
    host: HostCalls
    streamed: StreamedTail
    channel: RunChannel
    ended: bool = False


def serve(process: DenoProcess, serving: Serving) -> GuestReport:
    """Serve the run until the guest's `done`; raises `Overran` once the watch says the program is
    past a ceiling, `EngineLost` when the guest goes away."""
    watch = serving.held.watch
    pipe = serving.channel.fileno()
    poller = select.poll()
    poller.register(process.channel, select.POLLIN)
    poller.register(pipe, select.POLLIN)
    while True:
        for fd, _ in poller.poll(watch.wait_secs() * 1000):
            if fd == pipe:
                _take(process, serving, serving.channel.messages())
                continue
            for message in process.arrived():
                report = _hear(process, serving, message)
                if report is not None:
                    return report


def drain(serving: Serving) -> None:
    """Take the lines a stopped or lost guest's Worker had written and gg had not read yet."""
    while not serving.ended and (messages := serving.channel.messages()):
        for message in messages:
            _line(serving, message)


def _hear(process: DenoProcess, serving: Serving, message: Mapping[str, Any]) -> GuestReport | None:
    """One message of the guest's main channel; the report once the run is `done`."""
    held = serving.held
    if message.get("id") != held.run_id:
        return None
    if message["t"] == "started":
        _go(process, held, _bytes(message.get("neighbours")))
    elif message["t"] == "done":
        drain(serving)
        logs, dropped = serving.streamed.tail()
        return dataclasses.replace(report_of(message), logs=logs, dropped=dropped)
    return None


def _take(process: DenoProcess, serving: Serving, messages: list[dict[str, Any]]) -> None:
    """The Worker's messages: each call served, each batch of lines kept."""
    deadline = serving.held.watch.deadline
    for message in messages:
        if serving.ended or message.get("t") != "call":
            _line(serving, message)
            continue
        operation = str(message["op"])
        with deadline.call(operation):
            line = _answer(serving.held.run_id, operation, message, serving.host)
        if not deadline.passed():
            serving.channel.reply(line, deadline.remaining, process.channel.fileno())


def _line(serving: Serving, message: Mapping[str, Any]) -> None:
    if serving.ended:
        return
    if message.get("t") == "logs":
        serving.streamed.take(message)
    elif message.get("t") == "end":
        serving.ended = True


def _go(process: DenoProcess, held: Held, neighbours: int) -> None:
    """The run has a booted Worker: its ceiling counts from now, the process is held to the
    run's allowance (what other owners' warm Workers hold, `neighbours`, is theirs), and the
    program goes."""
    held.watch.deadline.begin_now()
    guest = process.process
    given = allowance(held.ceiling_bytes, guest.resident_bytes(), guest.data_bytes(), neighbours)
    try:
        guest.limit_data(given.data_limit)
    except OSError as error:
        raise EngineLost(f"the guest is gone: {error}") from error
    held.watch.hold_memory(given.resident_limit)
    process.send({"t": "go", "id": held.run_id})


def _bytes(said: object) -> int:
    """A byte count the guest said; nothing, for anything but a whole number at least 0."""
    return said if isinstance(said, int) and not isinstance(said, bool) and said > 0 else 0


def _answer(run_id: int, operation: str, message: Mapping[str, Any], host: HostCalls) -> bytes:
    """One host call served: the encoded reply; anything but `ApiError` propagates."""
    return reply_line(run_id, lambda: host(operation, arguments(operation, message.get("args"))))
