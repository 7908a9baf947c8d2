"""A pool of one long-lived Deno process that runs one program at a time, each in a fresh Worker.

Rules kept here:
- the process gets a private temporary directory (socket, `DENO_DIR`, an empty cwd), a minimal
  environment, stdin from /dev/null and permission for its one socket path only;
- `RLIMIT_DATA` (`data_limit`) is the backstop for memory outside the JS heap (ArrayBuffer, wasm,
  Blob): a typed array past it is the Worker's own out-of-memory, a Blob past it aborts the
  process, which is reported as out of memory; a run asking for a larger heap than the process
  was started for restarts it;
- the protocol is JSON lines over that socket, never stdio (see `guest/host.js`); host calls are
  served on the thread that called `run`, in the order the guest makes them;
- the time ceiling is kept here, on the wall clock from the moment the program is sent: a run
  with no `done` by then is stopped by killing the process (Deno's `worker.terminate()` leaves a
  running Worker spinning), and the process is replaced on the next run. The time a call to an
  operation that waits on external work (`Operation.waits_externally`: a shell, a sub-agent)
  spends on the host is added back to the deadline; every other host call runs on the clock;
- the pool starts on first use; a process that died (EOF), ran a program that was stopped or ran
  out of memory, or reports Workers that outlived their programs is replaced on the next run;
- a host function that raises anything but `ApiError` stops the program the same way, and the
  exception propagates out of `run`.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from deno import find_deno_bin

from gg.errors import ApiError, ErrorCode, FatalFault, GgDefect
from gg.prompts import render
from gg.sandbox.deno.bundle import HOST_SCRIPT, GuestBundle
from gg.sandbox.execution import CodeModule, HostCalls

START_SECS = 15.0
DATA_BASE_BYTES = 1024 * 1024**2
MAIN_HEAP_MB = 1024
STDERR_TAIL_BYTES = 16 * 1024
LAST_LOGS_SECS = 0.25  # how long a stopped run's log tail is waited for
_MiB = 1024 * 1024


class RunStatus(StrEnum):
    """How one program's run ended, as the pool saw it."""

    OK = "ok"
    THREW = "threw"
    TIMEOUT = "timeout"
    OOM = "oom"
    TRAP = "trap"


class SourceLanguage(StrEnum):
    """How the guest reads a program: as it is, or with its TypeScript types stripped."""

    JS = "js"
    TS = "ts"


@dataclass(frozen=True)
class Job:
    """One program to run: its source and language, the `lib:` modules loaded for it, and its
    ceilings."""

    program: str
    modules: tuple[CodeModule, ...]
    timeout_secs: float
    heap_bytes: int
    language: SourceLanguage = SourceLanguage.JS

    @property
    def libs(self) -> dict[str, dict[str, str]]:
        """The modules as the guest takes them: by key, each its source and extension."""
        return {m.key: {"source": m.source, "extension": m.extension} for m in self.modules}

    @property
    def heap_mb(self) -> int:
        return max(16, self.heap_bytes // _MiB)


@dataclass(frozen=True)
class RunReport:
    """What came back: the status, the guest's failure description, the log tail and timing."""

    status: RunStatus
    duration_ms: float
    failure: Mapping[str, Any] | None = None
    logs: tuple[str, ...] = ()
    dropped: int = 0
    detail: str = ""
    crowded: bool = False


class EngineLost(Exception):
    """The Deno process went away (EOF) or its channel failed."""


class EngineSilent(EngineLost):
    """The Deno process sent nothing before a deadline."""


@dataclass
class _Process:
    proc: subprocess.Popen[bytes]
    conn: socket.socket
    directory: str
    stderr_tail: deque[bytes] = field(default_factory=lambda: deque(maxlen=64))
    buffer: bytearray = field(default_factory=bytearray)
    heap_mb: int = 0


# Statuses after which the next program gets a fresh process: a trap leaves the engine suspect, and
# an out-of-memory Worker's memory may not be back yet, so the next Worker could not boot in it.
_FRESH_PROCESS_AFTER = frozenset({RunStatus.TRAP, RunStatus.OOM})


class DenoPool:
    """One Deno process serving one caller at a time; safe to `close()` from any thread."""

    def __init__(self, bundle: GuestBundle, *, data_base_bytes: int = DATA_BASE_BYTES) -> None:
        self._bundle = bundle
        self._data_base = data_base_bytes
        self._lock = threading.Lock()
        self._process: _Process | None = None
        self._next_id = 0

    @property
    def pid(self) -> int | None:
        """The running Deno process's id, if one is running."""
        return self._process.proc.pid if self._process else None

    def run(self, job: Job, host: HostCalls) -> RunReport:
        """Run `job` to its end, serving its host calls with `host`."""
        with self._lock:
            process = self._ensure(job.heap_mb)
            self._next_id += 1
            run_id = self._next_id
            process.stderr_tail.clear()
            started = time.monotonic()
            try:
                _send(
                    process,
                    {
                        "t": "run",
                        "id": run_id,
                        "program": job.program,
                        "lang": job.language.value,
                        "libs": job.libs,
                        "heapMb": job.heap_mb,
                    },
                )
                report = self._serve(process, run_id, started + job.timeout_secs, host)
            except EngineSilent:
                elapsed_ms = (time.monotonic() - started) * 1000
                logs, dropped = _last_logs(process, run_id)
                self._discard(process)
                return RunReport(RunStatus.TIMEOUT, elapsed_ms, logs=logs, dropped=dropped)
            except EngineLost:
                return self._lost(process, started)
            except BaseException:
                self._discard(process)
                raise
            if report.status in _FRESH_PROCESS_AFTER or report.crowded:
                self._discard(process)
            return report

    def close(self) -> None:
        """Kill the process and remove its private directory, at once: a run in progress on
        another thread ends as a lost engine. A later `run` starts a new process."""
        process, self._process = self._process, None
        if process is not None:
            _terminate(process)

    # ---- one run ---------------------------------------------------------------------------

    def _serve(self, process: _Process, run_id: int, deadline: float, host: HostCalls) -> RunReport:
        """Serve host calls until `done`; past `deadline` the guest is silent by definition."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineSilent("the program ran past its time ceiling")
            message = _receive(process, remaining)
            if message.get("id") != run_id:
                continue
            if message["t"] == "call":
                began = time.monotonic()
                reply = _answer(run_id, message, host)
                if message.get("op") in self._bundle.external:
                    deadline += time.monotonic() - began
                if time.monotonic() < deadline:
                    _send_raw(process, reply)
                continue
            if message["t"] == "done":
                return _report(message)

    def _discard(self, process: _Process) -> None:
        _terminate(process)
        if self._process is process:
            self._process = None

    def _lost(self, process: _Process, started: float) -> RunReport:
        """The process died mid-run: replace it; an allocation abort is an OOM."""
        self._discard(process)
        elapsed_ms = (time.monotonic() - started) * 1000
        tail = b"".join(process.stderr_tail).decode("utf-8", "replace")
        out_of_memory = "out of memory" in tail.lower() or "memory allocation of" in tail
        status = RunStatus.OOM if out_of_memory else RunStatus.TRAP
        return RunReport(status, elapsed_ms, detail=tail[-2000:])

    # ---- the process -----------------------------------------------------------------------

    def data_limit(self, heap_mb: int) -> int:
        """The process's `RLIMIT_DATA` for Workers of `heap_mb`: the engine's own reservations
        (about 650 MB with a running and a spare Worker) plus a quarter over the heap."""
        return self._data_base + heap_mb * _MiB * 5 // 4

    def _ensure(self, heap_mb: int) -> _Process:
        process = self._process
        if process is not None and process.proc.poll() is None and heap_mb <= process.heap_mb:
            return process
        if process is not None:
            self._discard(process)
        try:
            self._process = _spawn(self._bundle, heap_mb, self.data_limit(heap_mb))
        except EngineLost as error:
            raise GgDefect(FatalFault.HOST_FAULT, str(error)) from error
        return self._process


def _spawn(bundle: GuestBundle, heap_mb: int, data_limit: int) -> _Process:
    directory = tempfile.mkdtemp(prefix="gg-deno-")
    path = os.path.join(directory, "s")
    for sub in ("deno", "cwd"):
        os.mkdir(os.path.join(directory, sub), 0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    listener.settimeout(START_SECS)
    proc = subprocess.Popen(
        _command(path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=os.path.join(directory, "cwd"),
        env=_environment(directory),
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_DATA, (data_limit, data_limit)),
    )
    process = _Process(proc, socket.socket(), directory, heap_mb=heap_mb)
    threading.Thread(target=_drain_stderr, args=(process,), daemon=True).start()
    try:
        process.conn, _ = listener.accept()
        _send(process, bundle.init_message(heap_mb))
        if _receive(process, START_SECS).get("t") != "ready":
            raise EngineLost("the guest did not report ready")
    except (OSError, EngineLost) as error:
        _terminate(process)
        raise EngineLost(f"the Deno guest did not start: {error}") from error
    finally:
        listener.close()
    return process


def _command(path: str) -> list[str]:
    return [
        find_deno_bin(),
        "run",
        "--quiet",
        "--no-prompt",
        "--no-config",
        "--no-lock",
        "--no-remote",
        "--no-npm",
        f"--allow-read={path}",
        f"--allow-write={path}",
        f"--allow-net=unix:{path}",
        f"--v8-flags=--max-old-space-size={MAIN_HEAP_MB}",
        str(HOST_SCRIPT),
        path,
    ]


def _environment(directory: str) -> dict[str, str]:
    return {"DENO_DIR": os.path.join(directory, "deno"), "NO_COLOR": "1", "DENO_NO_UPDATE_CHECK": "1"}


def _drain_stderr(process: _Process) -> None:
    """Keep the tail of the engine's stderr: diagnostics, and how an aborted process died."""
    stream = process.proc.stderr
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        while chunk := os.read(stream.fileno(), 4096):
            process.stderr_tail.append(chunk[-STDERR_TAIL_BYTES:])


def _terminate(process: _Process) -> None:
    with contextlib.suppress(OSError):
        process.conn.close()
    if process.proc.poll() is None:
        process.proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.proc.wait(timeout=5)
    shutil.rmtree(process.directory, ignore_errors=True)


# ---- the wire ------------------------------------------------------------------------------


def _send(process: _Process, message: Mapping[str, Any]) -> None:
    _send_raw(process, json.dumps(message, allow_nan=False, separators=(",", ":")).encode())


def _send_raw(process: _Process, line: bytes) -> None:
    try:
        process.conn.sendall(line + b"\n")
    except OSError as error:
        raise EngineLost(str(error)) from error


def _last_logs(process: _Process, run_id: int) -> tuple[tuple[str, ...], int]:
    """The log tail of a run stopped at its ceiling, asked of the main thread (which a spinning
    Worker does not block) before the process is killed; nothing if it does not answer at once."""
    deadline = time.monotonic() + LAST_LOGS_SECS
    with contextlib.suppress(EngineLost):
        _send(process, {"t": "logs", "id": run_id})
        while (remaining := deadline - time.monotonic()) > 0:
            message = _receive(process, remaining)
            if message.get("t") == "logs" and message.get("id") == run_id:
                return tuple(str(line) for line in message.get("logs", ())), int(message.get("dropped", 0))
    return (), 0


def _receive(process: _Process, timeout: float) -> dict[str, Any]:
    buffer = process.buffer
    start = 0
    while (cut := buffer.find(b"\n", start)) < 0:
        start = len(buffer)
        process.conn.settimeout(timeout)
        try:
            chunk = process.conn.recv(1 << 20)
        except TimeoutError as error:
            raise EngineSilent("the guest sent nothing in time") from error
        except OSError as error:
            raise EngineLost(str(error)) from error
        if not chunk:
            raise EngineLost("the guest closed its channel")
        buffer += chunk
    line = bytes(buffer[:cut])
    del buffer[: cut + 1]
    return _decode(line)


def _decode(line: bytes) -> dict[str, Any]:
    try:
        return json.loads(line)
    except RecursionError:
        head = json.loads(line[: line.index(b',"args":')] + b"}")
        return {**head, "args": None}


def _answer(run_id: int, message: Mapping[str, Any], host: HostCalls) -> bytes:
    """Serve one host call; `ApiError` becomes a failed reply, anything else propagates."""
    operation = str(message["op"])
    args = message.get("args")
    try:
        if not isinstance(args, dict):
            key = operation.split(".", 1)[-1]
            raise ApiError(key, ErrorCode.INVALID_ARGUMENT, render("js-args-too-deep"))
        value = host(operation, args)
    except ApiError as error:
        reply = {"t": "reply", "id": run_id, "ok": False, "error": error.to_wire()}
    else:
        reply = {"t": "reply", "id": run_id, "ok": True, "value": value}
    return json.dumps(reply, allow_nan=False, separators=(",", ":")).encode()


def _report(message: Mapping[str, Any]) -> RunReport:
    return RunReport(
        status=RunStatus(message["status"]),
        duration_ms=float(message.get("ms", 0.0)),
        failure=message.get("failure"),
        logs=tuple(str(line) for line in message.get("logs", ())),
        dropped=int(message.get("dropped", 0)),
        detail=str(message.get("detail", "")),
        crowded=bool(message.get("crowded", False)),
    )
