"""Python worker processes (`gg.sandbox.monty.worker`, running Monty), each serving one program at a
time.

Rules kept here:
- a program runs on a worker leased to it for its whole run (`gg.sandbox.lease`): a program
  running on another thread, or waiting there in a host call, never holds it up; an idle worker
  serves the next program;
- each worker is a guest process (`gg.sandbox.process`): `python -I -m gg.sandbox.monty.worker` in
  a private empty directory, with a minimal environment, stdin from /dev/null, stdout discarded,
  in a session of its own (the process group the engine's own processes join), under `RLIMIT_DATA`
  (`data_limit`) as a backstop for memory the engine does not count; a run asking for more memory
  than an idle worker was started for gets a new worker;
- the channel is a socket pair, never stdio; SDK calls are served on the thread that called `run`,
  in the order the program makes them;
- the time ceiling is the engine's own for a program that computes (it stops the program and
  the worker goes on serving), and kept here, on the wall clock from the moment the program
  starts to run (for the checked twin: once the type check passed, which has `CHECK_SECS` of its
  own), `ENGINE_FIRST_SECS` past the ceiling, for one that spends its time in host calls (the
  engine's clock pauses there);
  time spent in a call that waits on outside work is added back (`Deadline`); the run's deadline
  stops it too (the type check included), never extended. A run with no
  `done` by then is stopped at once by killing the worker's process group; the worker never
  serves again, is cleaned up after the report and replaced in the background;
- the lines a program prints are streamed as it runs (`gg.sandbox.livelogs`); a run stopped by
  gg is reported with the streamed tail;
- a worker that dies mid-run is a trap (out of memory when its last words say so); an engine crash
  the worker survives is reported by the worker itself;
- a host function that raises anything but `ApiError` stops the run the same way, and the exception
  propagates out of `run`.
"""

from __future__ import annotations

import itertools
import os
import socket
import sys
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from gg.errors import FatalFault, GgDefect
from gg.sandbox.execution import HostCalls
from gg.sandbox.job import GuestReport, GuestStatus, Job, reply, report_of
from gg.sandbox.lease import GUESTS, Leases
from gg.sandbox.livelogs import StreamedTail
from gg.sandbox.monty.bundle import PyBundle
from gg.sandbox.monty.worker.channel import Channel, ChannelClosed
from gg.sandbox.process import Guest, GuestProcess, Launch, private_folder
from gg.sandbox.watch import Deadline, Overran, Watch

START_SECS = 30.0
CHECK_SECS = 10.0
ENGINE_FIRST_SECS = 0.05  # past the time ceiling, how long the engine has to stop a program itself
DATA_BASE_BYTES = 1024**3


@dataclass(eq=False)
class MontyWorker(Guest[Channel]):
    """One worker process (killed with its whole process group), its channel, and the data limit
    it was started under."""

    data_limit: int = 0


class MontyPool:
    """Workers leased one per running program; safe to `close()` from any thread."""

    def __init__(
        self,
        bundle: PyBundle,
        waits_externally: Collection[str] = (),
        spares: int = GUESTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bundle = bundle
        self._clock = clock
        self._external = frozenset(waits_externally)
        self._leases = Leases(self._start, _fits, spares)
        self._ids = itertools.count(1)

    @property
    def pid(self) -> int | None:
        """The process id (its process group's id too) of the worker the last program was given,
        while the pool holds it."""
        latest = self._leases.latest
        return latest.pid if latest else None

    @property
    def started(self) -> int:
        """How many workers this pool has started."""
        return self._leases.started

    def run(self, job: Job, host: HostCalls, checked: bool = False) -> GuestReport:
        """Run `job` to its end on a worker of its own, serving its SDK calls with `host`; `checked`
        type-checks it first."""
        with self._leases.lease(self.data_limit(job.memory_bytes)) as worker:
            run_id = next(self._ids)
            worker.process.forget_words()
            started = time.monotonic()
            served = _Served(
                worker, job, host, checked, Deadline(0.0, self._external, self._clock, job.run_left)
            )
            try:
                worker.channel.send(_run_message(run_id, job, checked))
                return served.until_done(run_id)
            except Overran:
                worker.stop()
                self._leases.discard(worker, later=True, replace=worker.data_limit)
                elapsed_ms = (time.monotonic() - started) * 1000
                if served.checking:
                    return GuestReport(GuestStatus.CHECK_TIMEOUT, 0.0, compile_ms=elapsed_ms)
                logs, dropped = served.streamed.tail()
                return GuestReport(
                    GuestStatus.TIMEOUT, elapsed_ms, logs=logs, dropped=dropped, compile_ms=served.compile_ms
                )
            except ChannelClosed:
                return self._lost(worker, started)

    def close(self) -> None:
        """Kill every worker and remove its directory at once; a later `run` starts a new one."""
        self._leases.close()

    def _lost(self, worker: MontyWorker, started: float) -> GuestReport:
        """The worker died mid-run: replace it; a worker that ran out of memory says so."""
        self._leases.discard(worker, later=True, replace=worker.data_limit)
        elapsed_ms = (time.monotonic() - started) * 1000
        tail = worker.process.last_words()
        out_of_memory = "MemoryError" in tail or "memory allocation" in tail
        return GuestReport(
            GuestStatus.OOM if out_of_memory else GuestStatus.TRAP, elapsed_ms, detail=tail[-2000:]
        )

    # ---- the process -----------------------------------------------------------------------

    def data_limit(self, memory_bytes: int) -> int:
        """The worker's `RLIMIT_DATA` for programs of `memory_bytes`: the interpreter and the engine
        (`DATA_BASE_BYTES`) plus twice the program's own ceiling."""
        return DATA_BASE_BYTES + 2 * memory_bytes

    def _start(self, data_limit: int) -> MontyWorker:
        return start(self._bundle, data_limit)


class _Served:
    """One run as gg serves it: its deadline (the type check's first, on the checked twin), the
    lines it streamed, and its SDK calls answered by `host`."""

    def __init__(
        self, worker: MontyWorker, job: Job, host: HostCalls, checking: bool, deadline: Deadline
    ) -> None:
        self.worker = worker
        self.job = job
        self.host = host
        self.checking = checking
        self.compile_ms: float | None = None
        self.streamed = StreamedTail(host)
        self.deadline = deadline
        deadline.restart(CHECK_SECS if checking else job.timeout_secs + ENGINE_FIRST_SECS)
        self.watch = Watch(self.deadline, worker.process)

    def until_done(self, run_id: int) -> GuestReport:
        """Serve the run until its `done`. Raises `Overran` past the deadline."""
        while True:
            try:
                message = self.worker.channel.receive(self.watch.wait_secs())
            except TimeoutError:
                continue
            if message.get("id") != run_id:
                continue
            kind = message.get("t")
            if kind == "checked":
                self.checking, self.compile_ms = False, float(message.get("ms", 0.0))
                self.deadline.restart(self.job.timeout_secs + ENGINE_FIRST_SECS)
            elif kind == "call":
                with self.deadline.call(str(message.get("op"))):
                    answer = _answer(run_id, message, self.host)
                if self.deadline.passed():
                    raise Overran(memory=False)
                self.worker.channel.send(answer)
            elif kind == "logs":
                self.streamed.take(message)
            elif kind == "done":
                return _report(message, self.compile_ms)


def _fits(worker: MontyWorker, data_limit: int) -> bool:
    return data_limit <= worker.data_limit


def start(bundle: PyBundle, data_limit: int) -> MontyWorker:
    """A new worker under `data_limit`, booted and ready; gg's defect when it does not start."""
    directory = private_folder("gg-python-")
    ours, theirs = socket.socketpair()
    command = [sys.executable, "-I", "-m", "gg.sandbox.monty.worker", str(theirs.fileno())]
    env = {"PATH": os.defpath, "LANG": "C.UTF-8"}
    launch = Launch(command, directory, env, directory, data_limit, pass_fds=(theirs.fileno(),))
    try:
        process = GuestProcess(launch)
    except OSError as error:
        ours.close()
        raise GgDefect(FatalFault.HOST_FAULT, f"the Python worker did not start: {error}") from error
    finally:
        theirs.close()
    worker = MontyWorker(process, Channel(ours), data_limit)
    try:
        worker.channel.send(bundle.init_message())
        if worker.channel.receive(START_SECS).get("t") != "ready":
            raise ChannelClosed("the worker did not report ready")
    except (ChannelClosed, TimeoutError):
        tail = process.last_words()[-1000:]
        worker.kill()
        raise GgDefect(FatalFault.HOST_FAULT, f"the Python worker did not start: {tail}") from None
    return worker


# ---- messages ------------------------------------------------------------------------------


def _run_message(run_id: int, job: Job, checked: bool) -> dict[str, Any]:
    return {
        "t": "run",
        "id": run_id,
        "program": job.program,
        "libs": {module.key: module.source for module in job.modules},
        "timeoutSecs": job.timeout_secs,
        "memoryBytes": job.memory_bytes,
        "checked": checked,
    }


def _answer(run_id: int, message: Mapping[str, Any], host: HostCalls) -> dict[str, Any]:
    """Serve one SDK call; `ApiError` becomes a failed reply, anything else propagates."""
    args = message.get("args")
    return reply(run_id, lambda: host(str(message.get("op")), args if isinstance(args, dict) else {}))


def _report(message: Mapping[str, Any], compile_ms: float | None) -> GuestReport:
    if message.get("status") == "defect":
        raise GgDefect(
            FatalFault.ARTIFACT_DEFECT, f"the Python SDK did not boot: {message.get('detail', '')}"
        )
    return report_of(message, compile_ms)
