"""The one guest-process layer: every engine process gg starts (a Deno pool process, a Python
worker, the TypeScript checker) is started, measured and stopped here.

Rules kept here:
- each process owns a private temporary directory (`private_folder`, with the sub-folders its
  engine names, each `0700`), removed when the process is killed;
- it starts with the environment its engine gives and nothing inherited from gg; stdin and stdout
  are /dev/null unless the engine talks over them (`Launch.pipes`); under `RLIMIT_DATA` when the
  engine names a data limit;
- it leads a session of its own, so its process group holds it and every process it starts (a
  Python worker's engine processes); the group is killed whole, and gg's sentinel
  (`gg.sandbox.sentinel`) kills it when gg goes away before it;
- a reader thread keeps the tail of its stderr (the last `STDERR_TAIL_CHUNKS` reads):
  diagnostics, and how a process that died went;
- `stop()` kills the group at once and waits for nothing: what it ran stops there; `kill()` stops
  it, reaps it, closes its pipes and removes its directory; `kill_later()` stops it at once and
  leaves the rest to a thread of its own, so a program stopped at a ceiling is reported before
  its engine is cleaned up. All three are idempotent and safe from any thread; nothing signals a
  group once its leader was reaped;
- `resident_bytes()` is the memory the group holds resident (RSS, the leader and its
  descendants; the leader's alone when its engine starts no process, `Launch.alone`), read from
  `/proc`; `data_bytes()` what the leader has mapped as data, which its
  `RLIMIT_DATA` bounds; `limit_data(bytes)` lowers that limit for a while, `limit_data(None)`
  lifts it back to where it was launched.

A running program's clock and memory ceiling are watched in `gg.sandbox.watch`.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import subprocess
import tempfile
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Generic, Protocol, TypeVar

from gg.sandbox.sentinel import SENTINEL, kill_group

STDERR_TAIL_CHUNKS = 64
READ_BYTES = 4096
STOP_WAIT_SECS = 5.0


class Closable(Protocol):
    def close(self) -> None: ...


C = TypeVar("C", bound=Closable)


def private_folder(prefix: str, *subs: str) -> str:
    """A new private temporary directory holding the sub-folders `subs`."""
    directory = tempfile.mkdtemp(prefix=prefix)
    for sub in subs:
        os.mkdir(os.path.join(directory, sub), 0o700)
    return directory


@dataclass(frozen=True)
class Launch:
    """How to start one guest process in its private `directory` (removed with the process)."""

    command: Sequence[str]
    directory: str
    env: Mapping[str, str]
    cwd: str
    data_limit: int | None = None
    pass_fds: tuple[int, ...] = ()
    pipes: bool = False
    alone: bool = False  # the engine starts no process of its own: its memory is its own


class GuestProcess:
    """One running engine process: its private directory, its stderr tail, and how it is killed.
    Raises `OSError` when the process cannot start (its directory is removed first)."""

    def __init__(self, launch: Launch) -> None:
        self.directory = launch.directory
        self._alone = launch.alone
        self._reaped = threading.Lock()
        self._tail: deque[bytes] = deque(maxlen=STDERR_TAIL_CHUNKS)
        try:
            self._proc = _popen(launch)
        except OSError:
            shutil.rmtree(launch.directory, ignore_errors=True)
            raise
        SENTINEL.watch(self._proc.pid, launch.directory)
        threading.Thread(target=self._drain, daemon=True).start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def stdin(self) -> IO[bytes]:
        assert self._proc.stdin is not None, "the process was launched without pipes"
        return self._proc.stdin

    @property
    def stdout(self) -> IO[bytes]:
        assert self._proc.stdout is not None, "the process was launched without pipes"
        return self._proc.stdout

    def alive(self) -> bool:
        return self._proc.poll() is None

    def last_words(self) -> str:
        """The tail of what the process wrote to stderr, decoded."""
        return b"".join(self._tail).decode("utf-8", "replace")

    def forget_words(self) -> None:
        """Start the stderr tail afresh (a new program's diagnostics begin here)."""
        self._tail.clear()

    def resident_bytes(self) -> int:
        """The resident memory of the process and every process it started, in bytes (0 once
        it is gone); of the process alone when its engine starts none."""
        return resident(self._proc.pid) if self._alone else resident_bytes(self._proc.pid)

    def data_bytes(self) -> int:
        """The leader's data mappings (`VmData`), in bytes (0 once it is gone)."""
        for line in _read(f"/proc/{self._proc.pid}/status").splitlines():
            if line.startswith(b"VmData:"):
                return int(line.split()[1]) * 1024
        return 0

    def limit_data(self, limit: int | None) -> None:
        """Hold the leader to `limit` bytes of data mappings, or, with None, to the limit it was
        launched under. Raises `OSError` once the process is gone."""
        _soft, hard = resource.prlimit(self._proc.pid, resource.RLIMIT_DATA)
        soft = hard if limit is None else min(limit, hard)
        resource.prlimit(self._proc.pid, resource.RLIMIT_DATA, (soft, hard))

    def stop(self) -> None:
        """Kill the whole group at once; reaping comes later (`kill`)."""
        if self._proc.returncode is None:
            kill_group(self._proc.pid)

    def kill(self) -> None:
        """Kill the whole group, reap the process, close its pipes and remove its directory."""
        self.stop()
        with self._reaped:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=STOP_WAIT_SECS)
            for stream in (self._proc.stdin, self._proc.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()
            shutil.rmtree(self.directory, ignore_errors=True)
            if self._proc.returncode is not None:
                SENTINEL.forget(self._proc.pid)

    def kill_later(self) -> None:
        """Stop the process now; reap it and remove its directory on a thread of their own."""
        self.stop()
        threading.Thread(target=self.kill, daemon=True).start()

    def _drain(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError), stream:
            while chunk := os.read(stream.fileno(), READ_BYTES):
                self._tail.append(chunk)


@dataclass(eq=False)
class Guest(Generic[C]):
    """One guest process and the channel gg speaks to it over, closed first when it is killed."""

    process: GuestProcess
    channel: C

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.alive()

    def stop(self) -> None:
        self.process.stop()

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.channel.close()
        self.process.kill()

    def kill_later(self) -> None:
        """Stop at once; the channel is closed and the process cleaned up on another thread."""
        self.process.stop()
        threading.Thread(target=self.kill, daemon=True).start()


def resident_bytes(pid: int) -> int:
    """The resident memory of process `pid` and every process descending from it, in bytes."""
    return sum(resident(member) for member in descendants(pid))


def descendants(pid: int) -> list[int]:
    """`pid` and every process descending from it, as `/proc` shows them now (read with plain
    `os` calls: a running guest's memory is read every few milliseconds)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            pending.extend(int(child) for child in _read(f"/proc/{current}/task/{task}/children").split())
    return found


def resident(pid: int) -> int:
    """The resident memory of process `pid` alone, in bytes (0 once it is gone)."""
    fields = _read(f"/proc/{pid}/statm").split()
    return int(fields[1]) * _PAGE_BYTES if len(fields) > 1 else 0


def _read(path: str) -> bytes:
    """What the `/proc` file at `path` holds; empty once it is gone. Read with plain `os` calls:
    a file object would ask the kernel three more things about every file first."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return b""
    chunks: list[bytes] = []
    try:
        while chunk := os.read(fd, READ_BYTES):
            chunks.append(chunk)
    except OSError:
        return b""
    finally:
        os.close(fd)
    return b"".join(chunks)


_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def _popen(launch: Launch) -> subprocess.Popen[bytes]:
    limit = launch.data_limit
    quiet = subprocess.PIPE if launch.pipes else subprocess.DEVNULL
    return subprocess.Popen(
        list(launch.command),
        stdin=quiet,
        stdout=quiet,
        stderr=subprocess.PIPE,
        cwd=launch.cwd,
        env=dict(launch.env),
        pass_fds=launch.pass_fds,
        start_new_session=True,
        preexec_fn=None
        if limit is None
        else lambda: resource.setrlimit(resource.RLIMIT_DATA, (limit, limit)),
    )
