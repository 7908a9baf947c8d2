"""A pool of long-lived Deno processes, each running one program at a time in a realm of its own.

Rules kept here:
- a program runs on a process leased to it for its whole run (`gg.sandbox.lease`): a program
  running on another thread, or waiting there in a host call, never holds it up; an idle process
  serves the next program;
- a job's owner is named in its `run` message: the guest keeps the Worker of an owner's program
  that ended `ok` or `threw` warm for that owner's next program (`guest/host.js`), so the lease
  prefers the idle process that ran the owner's last such program. A job with no owner runs in
  a fresh Worker, as every job of another owner does;
- how many Workers each process keeps (spares, warm ones) is `gg.sandbox.deno.workers`', told to
  the guest at `init`; at rest the process's data limit leaves room for every one of them;
- each process is a guest process (`gg.sandbox.process`): a private temporary directory (socket,
  an empty cwd, the folder of its runs' pipes), a minimal environment, stdin from /dev/null, and
  permission for its one socket path and that folder only; its `DENO_DIR` is the cache gg's
  guests share (`gg.sandbox.deno.cache`), or a folder of its private directory without one;
- the memory ceiling holds the whole process, not only the Worker's heap, save the Workers kept
  warm for other owners (`gg.sandbox.deno.memory`): once the guest says a run has `started` on a
  booted Worker (and what those hold), the process's data limit is lowered to what it held plus
  the run's allowance, its resident memory
  is watched (`Watch`) against the same, and only then is the guest told to `go`; so
  ArrayBuffers, wasm memory and Blobs count. An ArrayBuffer past the data limit is a
  `RangeError` at the program's line; V8's heap past it, or a Blob, aborts the process, which
  is reported as out of memory. Once the run is over the limit is lifted and the guest told to
  `rest` (it boots spares again). A run asking for a larger heap than an idle process was
  started for gets a new process;
- the protocol is JSON lines over that socket (`gg.sandbox.deno.wire`), and over two pipes made
  for each run, which its Worker speaks to directly (`gg.sandbox.deno.channel`); host calls are
  served on the thread that called `run`, in the order the guest makes them
  (`gg.sandbox.deno.serving`);
- the time ceiling is kept here, on the wall clock from the moment the guest says the program
  has its Worker (`started`; until then the program waits for its engine, `START_SECS` at
  most, off its clock): a run with no `done` by then is stopped at once by killing its process
  (Deno's `worker.terminate()` leaves a running Worker spinning), reported with the lines it
  wrote (those gg had not read yet included), and the process is reaped and its directory
  removed after the report. The time a call to an operation that waits on external work spends
  on the host is added back (`Deadline`); the run's deadline stops it too, never extended;
- the pool starts its first process on first use; a process that died (EOF), ran a program that
  was stopped or ran out of memory, or reports Workers that outlived their programs is stopped,
  never serves again, and is replaced at once in the background;
- a host function that raises anything but `ApiError` stops the program the same way, and the
  exception propagates out of `run`.
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from deno import find_deno_bin

from gg.errors import FatalFault, GgDefect
from gg.sandbox.deno.bundle import HOST_SCRIPT, GuestBundle
from gg.sandbox.deno.cache import shared_cache
from gg.sandbox.deno.channel import CHANNEL_FOLDER, RunChannel
from gg.sandbox.deno.serving import Held, Serving, drain, serve
from gg.sandbox.deno.wire import DenoProcess, EngineLost, run_message
from gg.sandbox.deno.workers import WORKERS, Workers
from gg.sandbox.execution import HostCalls
from gg.sandbox.job import GuestReport, GuestStatus, Job
from gg.sandbox.lease import GUESTS, Leases
from gg.sandbox.livelogs import StreamedTail
from gg.sandbox.process import GuestProcess, Launch, private_folder
from gg.sandbox.watch import Deadline, Overran, Watch

START_SECS = 15.0
MAIN_HEAP_MB = 1024
_MiB = 1024 * 1024

WARM_OWNERS_KEPT = 256  # owners whose last process is remembered, for the lease to prefer it
# Statuses after which the next program keeps the Worker warm for the same owner.
_WARM_AFTER = frozenset({GuestStatus.OK, GuestStatus.THREW})
# Statuses after which the next program gets a fresh process: a trap leaves the engine suspect, and
# an out-of-memory Worker's memory may not be back yet, so the next Worker could not boot in it.
_FRESH_PROCESS_AFTER = frozenset({GuestStatus.TRAP, GuestStatus.OOM})


class SourceLanguage(StrEnum):
    """How the guest reads a program: as it is, or with its TypeScript types stripped."""

    JS = "js"
    TS = "ts"


def heap_mb(job: Job) -> int:
    """The V8 heap a job's memory ceiling stands for (`MAIN_HEAP_MB` at the least: the flag
    holds the main thread and the nurseries too)."""
    return max(MAIN_HEAP_MB, job.memory_bytes // _MiB)


class DenoPool:
    """Deno processes leased one per running program; safe to `close()` from any thread."""

    def __init__(
        self,
        bundle: GuestBundle,
        *,
        workers: Workers = WORKERS,
        spares: int = GUESTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bundle = bundle
        self._workers = workers
        self._clock = clock
        self._leases = Leases(self._start, _fits, spares)
        self._ids = itertools.count(1)
        self._warm: dict[str, DenoProcess] = {}  # owner -> the process holding its warm Worker
        self._warm_lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        """The id of the process the last program was given, while the pool holds it."""
        latest = self._leases.latest
        return latest.pid if latest else None

    @property
    def started(self) -> int:
        """How many Deno processes this pool has started."""
        return self._leases.started

    def run(self, job: Job, host: HostCalls, language: SourceLanguage = SourceLanguage.JS) -> GuestReport:
        """Run `job` to its end on a process of its own, serving its host calls with `host`."""
        heap = heap_mb(job)
        with self._leases.lease(heap, self._holds_warm(job.owner)) as process:
            run_id = next(self._ids)
            process.process.forget_words()
            started = time.monotonic()
            deadline = Deadline(job.timeout_secs, self._bundle.external, self._clock, job.run_left)
            deadline.hold(START_SECS)
            held = Held(run_id, job.memory_bytes, Watch(deadline, process.process))
            streamed = StreamedTail(host)
            try:
                channel = RunChannel(os.path.join(process.process.directory, CHANNEL_FOLDER), run_id)
            except OSError as error:
                raise GgDefect(FatalFault.HOST_FAULT, f"the run's pipes were not made: {error}") from error
            message = run_message(run_id, job.program, language.value, job.modules, channel.paths)
            if job.owner is not None:
                message["owner"] = job.owner
            try:
                report = self._ran(process, message, Serving(held, host, streamed, channel), heap, started)
            finally:
                channel.close()
            self._remember(job.owner, process, report)
            return report

    def home(self, owner: str) -> int | None:
        """The id of the process holding `owner`'s warm Worker, while the pool holds it."""
        holder = self._holder(owner)
        return holder.pid if holder is not None and holder.alive() else None

    def idle(self) -> frozenset[int]:
        """The ids of the processes idle now."""
        return frozenset(process.pid for process in self._leases.idle())

    def _holds_warm(self, owner: str | None) -> Callable[[DenoProcess], bool] | None:
        """Whether a process holds `owner`'s warm Worker, for the lease to prefer it."""
        if owner is None:
            return None
        holder = self._holder(owner)
        return lambda process: process is holder

    def _holder(self, owner: str) -> DenoProcess | None:
        """The process the guest kept `owner`'s Worker warm on, as last noted."""
        with self._warm_lock:
            return self._warm.get(owner)

    def _remember(self, owner: str | None, process: DenoProcess, report: GuestReport) -> None:
        """Note the process that now holds `owner`'s warm Worker (the guest kept it after a
        program that ended `ok` or `threw`); the oldest owners are forgotten past
        `WARM_OWNERS_KEPT`."""
        if owner is None:
            return
        with self._warm_lock:
            self._warm.pop(owner, None)
            if report.status in _WARM_AFTER and not report.crowded:
                self._warm[owner] = process
            while len(self._warm) > WARM_OWNERS_KEPT:
                del self._warm[next(iter(self._warm))]

    def _ran(
        self, process: DenoProcess, message: dict[str, Any], serving: Serving, heap: int, started: float
    ) -> GuestReport:
        """The report of the run `message` starts, once it is over; the process is rested, or
        discarded and replaced when it is no longer fit to serve."""
        streamed = serving.streamed
        try:
            process.send(message)
            report = serve(process, serving)
        except Overran as over:
            process.stop()
            drain(serving)
            self._leases.discard(process, later=True, replace=heap)
            logs, dropped = streamed.tail()
            status = GuestStatus.OOM if over.memory else GuestStatus.TIMEOUT
            return GuestReport(status, _ms_since(started), logs=logs, dropped=dropped)
        except EngineLost:
            drain(serving)
            return self._lost(process, started, streamed)
        if report.status in _FRESH_PROCESS_AFTER or report.crowded:
            self._leases.discard(process, later=True, replace=heap)
        else:
            _rest(process)
        return report

    def close(self) -> None:
        """Kill every process and remove its private directory, at once: a run in progress on
        another thread ends as a lost engine. A later `run` starts a new process."""
        self._leases.close()

    def _lost(self, process: DenoProcess, started: float, streamed: StreamedTail) -> GuestReport:
        """The process died mid-run: replace it; an allocation abort is an OOM. The lines the
        program logged before stand."""
        self._leases.discard(process, later=True, replace=process.heap_mb)
        elapsed_ms = _ms_since(started)
        tail = process.process.last_words()
        out_of_memory = "out of memory" in tail.lower() or "memory allocation of" in tail
        status = GuestStatus.OOM if out_of_memory else GuestStatus.TRAP
        logs, dropped = streamed.tail()
        return GuestReport(status, elapsed_ms, logs=logs, dropped=dropped, detail=tail[-2000:])

    # ---- the process -----------------------------------------------------------------------

    def data_limit(self, heap_mb: int) -> int:
        """The process's `RLIMIT_DATA` while no program runs, for a heap of `heap_mb`: the
        engine's own reservations and its Workers' (`gg.sandbox.deno.workers`) plus a quarter
        over the heap. A running program is held far tighter."""
        return self._workers.data_base_bytes + heap_mb * _MiB * 5 // 4

    def _start(self, heap_mb: int) -> DenoProcess:
        try:
            return start(self._bundle, heap_mb, self.data_limit(heap_mb), self._workers)
        except EngineLost as error:
            raise GgDefect(FatalFault.HOST_FAULT, str(error)) from error


def _rest(process: DenoProcess) -> None:
    """The run is over: lift the data limit and let the guest boot its spares again. A process
    that went away meanwhile is left to the leases (a dead one is never handed out)."""
    try:
        process.process.limit_data(None)
        process.send({"t": "rest"})
    except (OSError, EngineLost):
        return


def _ms_since(started: float) -> float:
    return (time.monotonic() - started) * 1000


def _fits(process: DenoProcess, heap_mb: int) -> bool:
    return heap_mb <= process.heap_mb


def start(bundle: GuestBundle, heap_mb: int, data_limit: int, workers: Workers = WORKERS) -> DenoProcess:
    """A new Deno pool process whose Workers have `heap_mb`, keeping `workers`, booted and ready;
    `EngineLost` when it does not start."""
    directory = private_folder("gg-deno-", "deno", "cwd", CHANNEL_FOLDER)
    path = os.path.join(directory, "s")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(START_SECS)
        try:
            guest = GuestProcess(_launch(directory, path, data_limit, heap_mb))
        except OSError as error:
            raise EngineLost(f"the Deno guest did not start: {error}") from error
        try:
            process = DenoProcess(guest, listener.accept()[0], heap_mb)
        except OSError as error:
            guest.kill()
            raise EngineLost(f"the Deno guest did not start: {error}") from error
    try:
        process.send({**bundle.init_message(), **workers.init_fields()})
        if process.receive(START_SECS).get("t") != "ready":
            raise EngineLost("the guest did not report ready")
    except EngineLost as error:
        process.kill()
        raise EngineLost(f"the Deno guest did not start: {error}") from error
    return process


def _launch(directory: str, path: str, data_limit: int, heap_mb: int) -> Launch:
    """Deno, allowed its one socket and its runs' pipes and nothing else, in the private
    `directory`, its V8 heap bounded at `heap_mb`."""
    pipes = os.path.join(directory, CHANNEL_FOLDER)
    command = [
        find_deno_bin(),
        "run",
        "--quiet",
        "--no-prompt",
        "--no-config",
        "--no-lock",
        "--no-remote",
        "--no-npm",
        f"--allow-read={path},{pipes}",
        f"--allow-write={path},{pipes}",
        f"--allow-net=unix:{path}",
        f"--v8-flags=--max-old-space-size={heap_mb}",
        str(HOST_SCRIPT),
        path,
    ]
    deno_dir = shared_cache() or os.path.join(directory, "deno")
    env = {"DENO_DIR": deno_dir, "NO_COLOR": "1", "DENO_NO_UPDATE_CHECK": "1"}
    cwd = os.path.join(directory, "cwd")
    return Launch(command, directory, env, cwd=cwd, data_limit=data_limit, alone=True)
