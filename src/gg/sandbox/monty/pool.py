"""Python worker processes (`gg.sandbox.monty.worker`, running Monty), each serving one program at a
time.

Rules kept here:
- a program runs on a worker leased to it for its whole run (`gg.sandbox.lease`): a program
  running on another thread, or waiting there in a host call, never holds it up; an idle worker
  serves the next program;
- each worker is a guest process (`gg.sandbox.process`): `python -I -m gg.sandbox.monty.worker` in
  a private empty directory, with a minimal environment, stdin from /dev/null, stdout discarded,
  in a session of its own (a process group the engine's own processes join), under `RLIMIT_DATA`
  (`data_limit`) as a backstop for memory the engine does not count; a run asking for more memory
  than an idle worker was started for gets a new worker;
- the channel is a socket pair, never stdio; SDK calls are served on the thread that called `run`,
  in the order the program makes them;
- the time ceiling is kept here, on the wall clock from the moment the program starts to run (for
  the checked twin: once the type check passed, which has `CHECK_SECS` of its own); time spent in a
  call that waits on outside work is added back (`Deadline`). A run with no `done` by then is
  stopped by killing the worker's process group (the engine's clock pauses in host calls, so it
  cannot be trusted to stop a program that spends its time there), which never serves again;
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
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from gg.errors import FatalFault, GgDefect
from gg.sandbox.execution import HostCalls
from gg.sandbox.job import GuestReport, GuestStatus, Job, reply, report_of
from gg.sandbox.lease import SPARES, Leases
from gg.sandbox.monty.bundle import PyBundle
from gg.sandbox.monty.worker.channel import Channel, ChannelClosed
from gg.sandbox.process import Deadline, Guest, GuestProcess, Launch, private_folder

START_SECS = 30.0
CHECK_SECS = 10.0
DATA_BASE_BYTES = 1024**3


class _Overran(Exception):
    """The run outlived its deadline: in the type check, or in the program."""

    def __init__(self, checking: bool, compile_ms: float | None) -> None:
        super().__init__("past the deadline")
        self.checking = checking
        self.compile_ms = compile_ms


@dataclass(eq=False)
class MontyWorker(Guest[Channel]):
    """One worker process (killed with its whole process group), its channel, and the data limit
    it was started under."""

    data_limit: int = 0


class MontyPool:
    """Workers leased one per running program; safe to `close()` from any thread."""

    def __init__(
        self, bundle: PyBundle, waits_externally: Collection[str] = (), spares: int = SPARES
    ) -> None:
        self._bundle = bundle
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
            try:
                worker.channel.send(_run_message(run_id, job, checked))
                return self._serve(worker, run_id, job, host, checked)
            except _Overran as late:
                self._leases.discard(worker)
                elapsed_ms = (time.monotonic() - started) * 1000
                if late.checking:
                    return GuestReport(GuestStatus.CHECK_TIMEOUT, 0.0, compile_ms=elapsed_ms)
                return GuestReport(GuestStatus.TIMEOUT, elapsed_ms, compile_ms=late.compile_ms)
            except ChannelClosed:
                return self._lost(worker, started)

    def close(self) -> None:
        """Kill every worker and remove its directory at once; a later `run` starts a new one."""
        self._leases.close()

    # ---- one run ---------------------------------------------------------------------------

    def _serve(
        self, worker: MontyWorker, run_id: int, job: Job, host: HostCalls, checking: bool
    ) -> GuestReport:
        deadline = Deadline(CHECK_SECS if checking else job.timeout_secs, self._external)
        compile_ms: float | None = None
        while True:
            try:
                message = worker.channel.receive(deadline.remaining())
            except TimeoutError:
                raise _Overran(checking, compile_ms) from None
            if message.get("id") != run_id:
                continue
            kind = message.get("t")
            if kind == "checked":
                checking, compile_ms = False, float(message.get("ms", 0.0))
                deadline.restart(job.timeout_secs)
            elif kind == "call":
                with deadline.call(str(message.get("op"))):
                    answer = _answer(run_id, message, host)
                if deadline.passed():
                    raise _Overran(checking, compile_ms)
                worker.channel.send(answer)
            elif kind == "done":
                return _report(message, compile_ms)

    def _lost(self, worker: MontyWorker, started: float) -> GuestReport:
        """The worker died mid-run: replace it; a worker that ran out of memory says so."""
        self._leases.discard(worker)
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


def _fits(worker: MontyWorker, data_limit: int) -> bool:
    return data_limit <= worker.data_limit


def start(bundle: PyBundle, data_limit: int) -> MontyWorker:
    """A new worker under `data_limit`, booted and ready; gg's defect when it does not start."""
    directory = private_folder("gg-python-")
    ours, theirs = socket.socketpair()
    command = [sys.executable, "-I", "-m", "gg.sandbox.monty.worker", str(theirs.fileno())]
    env = {"PATH": os.defpath, "LANG": "C.UTF-8"}
    launch = Launch(
        command, directory, env, directory, data_limit, own_session=True, pass_fds=(theirs.fileno(),)
    )
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
