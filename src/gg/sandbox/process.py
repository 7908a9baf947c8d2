"""The one guest-process layer: every engine process gg starts (a Deno pool process, a Python
worker, the TypeScript checker) is started, watched, timed and stopped here.

Rules kept here:
- each process owns a private temporary directory (`private_folder`, with the sub-folders its
  engine names, each `0700`), removed when the process is killed;
- it starts with the environment its engine gives and nothing inherited from gg; stdin and stdout
  are /dev/null unless the engine talks over them (`Launch.pipes`); under `RLIMIT_DATA` when the
  engine names a data limit; `own_session` puts it in a session of its own (a process group the
  engine's own children join), and then killing it kills the whole group;
- a reader thread keeps the tail of its stderr (the last `STDERR_TAIL_CHUNKS` reads):
  diagnostics, and how a process that died went;
- `kill()` is idempotent and safe from any thread;
- a `Deadline` is a program's time ceiling on the wall clock; the time a call to an operation
  that waits on outside work (`Operation.waits_externally`: a shell, a sub-agent) spends on the
  host is credited back, every other host call runs on the clock.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Collection, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Generic, Protocol, TypeVar

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
    own_session: bool = False
    pass_fds: tuple[int, ...] = ()
    pipes: bool = False


class GuestProcess:
    """One running engine process: its private directory, its stderr tail, and how it is killed.
    Raises `OSError` when the process cannot start (its directory is removed first)."""

    def __init__(self, launch: Launch) -> None:
        self.directory = launch.directory
        self._own_session = launch.own_session
        self._tail: deque[bytes] = deque(maxlen=STDERR_TAIL_CHUNKS)
        try:
            self._proc = _popen(launch)
        except OSError:
            shutil.rmtree(launch.directory, ignore_errors=True)
            raise
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

    def kill(self) -> None:
        """Kill the process (its whole group when it has a session of its own), reap it, close
        its pipes and remove its directory."""
        if self._own_session:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)
        elif self._proc.poll() is None:
            self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=STOP_WAIT_SECS)
        for stream in (self._proc.stdin, self._proc.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        shutil.rmtree(self.directory, ignore_errors=True)

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

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.channel.close()
        self.process.kill()


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
        start_new_session=launch.own_session,
        preexec_fn=None
        if limit is None
        else lambda: resource.setrlimit(resource.RLIMIT_DATA, (limit, limit)),
    )


class Deadline:
    """A program's time ceiling on the wall clock, `secs` from now; the time spent serving a call
    to one of the `external` operations is added back."""

    def __init__(self, secs: float, external: Collection[str] = ()) -> None:
        self._external = external
        self._end = time.monotonic() + secs

    def remaining(self) -> float:
        return self._end - time.monotonic()

    def passed(self) -> bool:
        return self.remaining() <= 0

    def restart(self, secs: float) -> None:
        """The ceiling starts again, `secs` from now."""
        self._end = time.monotonic() + secs

    @contextlib.contextmanager
    def call(self, operation: str) -> Generator[None]:
        """The serving of one call to `operation`: on the program's clock unless the operation
        waits on outside work."""
        began = time.monotonic()
        try:
            yield
        finally:
            if operation in self._external:
                self._end += time.monotonic() - began
