"""One Python worker process (`gg.sandbox.monty.worker`, running Monty) serving one program at a time.

Rules kept here:
- the worker runs `python -I -m gg.sandbox.monty.worker` in a private empty directory, with a minimal
  environment, stdin from /dev/null, stdout discarded, in a session of its own (a process group the
  engine's own processes join), under `RLIMIT_DATA` (`data_limit`) as a backstop for memory the
  engine does not count; a run asking for more memory than the worker was started for restarts it;
- the channel is a socket pair, never stdio; SDK calls are served on the thread that called `run`,
  in the order the program makes them;
- the time ceiling is kept here, on the wall clock from the moment the program starts to run (for
  the checked twin: once the type check passed, which has `CHECK_SECS` of its own); time spent in a
  call that waits on outside work (`Operation.waits_externally`) is added back. A run with no `done`
  by then is stopped by killing the worker's process group (the engine's clock pauses in host
  calls, so it cannot be trusted to stop a program that spends its time there), and a new worker
  starts on the next run;
- a worker that dies mid-run is a trap (out of memory when its last words say so) and is replaced
  on the next run; an engine crash the worker survives is reported by the worker itself;
- a host function that raises anything but `ApiError` stops the run the same way, and the exception
  propagates out of `run`.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from gg.errors import ApiError, FatalFault, GgDefect
from gg.sandbox.execution import HostCalls
from gg.sandbox.monty.bundle import PyBundle
from gg.sandbox.monty.worker.channel import Channel, ChannelClosed

START_SECS = 30.0
CHECK_SECS = 10.0
DATA_BASE_BYTES = 1024**3
STDERR_TAIL_CHUNKS = 64


class RunStatus(StrEnum):
    """How one program's run ended, as the pool saw it."""

    OK = "ok"
    THREW = "threw"
    COMPILE = "compile"
    CHECK_TIMEOUT = "check_timeout"
    TIMEOUT = "timeout"
    OOM = "oom"
    TRAP = "trap"


@dataclass(frozen=True)
class PyJob:
    """One program to run: its source, its code modules by key, its ceilings, and whether it is
    type-checked first."""

    program: str
    libs: Mapping[str, str]
    timeout_secs: float
    memory_bytes: int
    checked: bool = False


@dataclass(frozen=True)
class PyReport:
    """What came back: how the run ended, the worker's failure description or the checker's
    diagnostics, the log tail, and timing (ms)."""

    status: RunStatus
    duration_ms: float
    failure: Mapping[str, Any] | None = None
    diagnostics: str = ""
    logs: tuple[str, ...] = ()
    dropped: int = 0
    compile_ms: float | None = None
    detail: str = ""


class _Deadline(Exception):
    """The run outlived its deadline: in the type check, or in the program."""

    def __init__(self, checking: bool, compile_ms: float | None) -> None:
        super().__init__("past the deadline")
        self.checking = checking
        self.compile_ms = compile_ms


@dataclass
class _Worker:
    proc: subprocess.Popen[bytes]
    channel: Channel
    directory: str
    data_limit: int
    stderr_tail: deque[bytes] = field(default_factory=lambda: deque(maxlen=STDERR_TAIL_CHUNKS))


class MontyPool:
    """One worker serving one caller at a time; safe to `close()` from any thread."""

    def __init__(self, bundle: PyBundle, waits_externally: Collection[str] = ()) -> None:
        self._bundle = bundle
        self._external = frozenset(waits_externally)
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        self._next_id = 0

    @property
    def pid(self) -> int | None:
        """The running worker's process id (its process group's id too), if one is running."""
        return self._worker.proc.pid if self._worker else None

    def run(self, job: PyJob, host: HostCalls) -> PyReport:
        """Run `job` to its end, serving its SDK calls with `host`."""
        with self._lock:
            worker = self._ensure(job.memory_bytes)
            self._next_id += 1
            run_id = self._next_id
            worker.stderr_tail.clear()
            started = time.monotonic()
            try:
                worker.channel.send(_run_message(run_id, job))
                return self._serve(worker, run_id, job, host, started)
            except _Deadline as late:
                self._discard(worker)
                elapsed_ms = (time.monotonic() - started) * 1000
                if late.checking:
                    return PyReport(RunStatus.CHECK_TIMEOUT, 0.0, compile_ms=elapsed_ms)
                return PyReport(RunStatus.TIMEOUT, elapsed_ms, compile_ms=late.compile_ms)
            except ChannelClosed:
                return self._lost(worker, started)
            except BaseException:
                self._discard(worker)
                raise

    def close(self) -> None:
        """Kill the worker and remove its directory at once; a later `run` starts a new one."""
        worker, self._worker = self._worker, None
        if worker is not None:
            _terminate(worker)

    # ---- one run ---------------------------------------------------------------------------

    def _serve(self, worker: _Worker, run_id: int, job: PyJob, host: HostCalls, started: float) -> PyReport:
        checking = job.checked
        deadline = started + (CHECK_SECS if checking else job.timeout_secs)
        compile_ms: float | None = None
        while True:
            try:
                message = worker.channel.receive(deadline - time.monotonic())
            except TimeoutError:
                raise _Deadline(checking, compile_ms) from None
            if message.get("id") != run_id:
                continue
            kind = message.get("t")
            if kind == "checked":
                checking, compile_ms = False, float(message.get("ms", 0.0))
                deadline = time.monotonic() + job.timeout_secs
            elif kind == "call":
                asked = time.monotonic()
                reply = _answer(run_id, message, host)
                if message.get("op") in self._external:
                    deadline += time.monotonic() - asked
                if time.monotonic() >= deadline:
                    raise _Deadline(checking, compile_ms)
                worker.channel.send(reply)
            elif kind == "done":
                return _report(message, compile_ms)

    def _lost(self, worker: _Worker, started: float) -> PyReport:
        """The worker died mid-run: replace it; a worker that ran out of memory says so."""
        self._discard(worker)
        elapsed_ms = (time.monotonic() - started) * 1000
        tail = b"".join(worker.stderr_tail).decode("utf-8", "replace")
        status = RunStatus.OOM if "MemoryError" in tail or "memory allocation" in tail else RunStatus.TRAP
        return PyReport(status, elapsed_ms, detail=tail[-2000:])

    def _discard(self, worker: _Worker) -> None:
        _terminate(worker)
        if self._worker is worker:
            self._worker = None

    # ---- the process -----------------------------------------------------------------------

    def data_limit(self, memory_bytes: int) -> int:
        """The worker's `RLIMIT_DATA` for programs of `memory_bytes`: the interpreter and the engine
        (`DATA_BASE_BYTES`) plus twice the program's own ceiling."""
        return DATA_BASE_BYTES + 2 * memory_bytes

    def _ensure(self, memory_bytes: int) -> _Worker:
        worker = self._worker
        limit = self.data_limit(memory_bytes)
        if worker is not None and worker.proc.poll() is None and limit <= worker.data_limit:
            return worker
        if worker is not None:
            self._discard(worker)
        try:
            self._worker = _spawn(self._bundle, limit)
        except (OSError, ChannelClosed, TimeoutError) as error:
            raise GgDefect(FatalFault.HOST_FAULT, f"the Python worker did not start: {error}") from error
        return self._worker


def _spawn(bundle: PyBundle, data_limit: int) -> _Worker:
    directory = tempfile.mkdtemp(prefix="gg-python-")
    ours, theirs = socket.socketpair()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-m", "gg.sandbox.monty.worker", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=directory,
            env={"PATH": os.defpath, "LANG": "C.UTF-8"},
            start_new_session=True,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_DATA, (data_limit, data_limit)),
        )
    except OSError:
        ours.close()
        shutil.rmtree(directory, ignore_errors=True)
        raise
    finally:
        theirs.close()
    worker = _Worker(proc, Channel(ours), directory, data_limit)
    threading.Thread(target=_drain_stderr, args=(worker,), daemon=True).start()
    try:
        worker.channel.send(bundle.init_message())
        if worker.channel.receive(START_SECS).get("t") != "ready":
            raise ChannelClosed("the worker did not report ready")
    except (ChannelClosed, TimeoutError):
        tail = b"".join(worker.stderr_tail).decode("utf-8", "replace")[-1000:]
        _terminate(worker)
        raise ChannelClosed(f"the worker did not start: {tail}") from None
    return worker


def _drain_stderr(worker: _Worker) -> None:
    """Keep the tail of the worker's stderr: how a dead worker died."""
    stream = worker.proc.stderr
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        while chunk := os.read(stream.fileno(), 4096):
            worker.stderr_tail.append(chunk)


def _terminate(worker: _Worker) -> None:
    """Kill the worker's whole process group (the engine's processes with it) and clean up."""
    worker.channel.close()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(worker.proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        worker.proc.wait(timeout=5)
    shutil.rmtree(worker.directory, ignore_errors=True)


# ---- messages ------------------------------------------------------------------------------


def _run_message(run_id: int, job: PyJob) -> dict[str, Any]:
    return {
        "t": "run",
        "id": run_id,
        "program": job.program,
        "libs": dict(job.libs),
        "timeoutSecs": job.timeout_secs,
        "memoryBytes": job.memory_bytes,
        "checked": job.checked,
    }


def _answer(run_id: int, message: Mapping[str, Any], host: HostCalls) -> dict[str, Any]:
    """Serve one SDK call; `ApiError` becomes a failed reply, anything else propagates."""
    args = message.get("args")
    try:
        value = host(str(message.get("op")), args if isinstance(args, dict) else {})
    except ApiError as error:
        return {"t": "reply", "id": run_id, "ok": False, "error": error.to_wire()}
    return {"t": "reply", "id": run_id, "ok": True, "value": value}


def _report(message: Mapping[str, Any], compile_ms: float | None) -> PyReport:
    status = str(message.get("status"))
    if status == "defect":
        raise GgDefect(
            FatalFault.ARTIFACT_DEFECT, f"the Python SDK did not boot: {message.get('detail', '')}"
        )
    compiled = message.get("compileMs")
    return PyReport(
        status=RunStatus(status),
        duration_ms=float(message.get("ms", 0.0)),
        failure=message.get("failure"),
        diagnostics=str(message.get("diagnostics", "")),
        logs=tuple(str(line) for line in message.get("logs", ())),
        dropped=int(message.get("dropped", 0)),
        compile_ms=float(compiled) if compiled is not None else compile_ms,
        detail=str(message.get("detail", "")),
    )
