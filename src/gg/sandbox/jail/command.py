"""Running one command in a jail, from its start to the moment its last process is gone.

Rules:
- bubblewrap runs in its own process group, with an empty environment, the jail's options read
  from a memfd (no command line shows them), stdout and stderr on one pipe (merged, in order);
- it reports pid 1's host pid, then the command's exit code, on a status pipe; pid 1 waits on a
  block pipe while gg sets the policy's limits, a lower priority (`NICENESS`) and, for root, the
  pids group on it, which all the command starts inherits. The shell then waits for gg's word on
  its stdin (the command's own is /dev/null): a gg that died first makes it end, running nothing;
- the command ends when its shell exits: pid 1 exits, and the kernel ends the rest of its pid
  namespace first; the call returns once bubblewrap exited, the output closed and pid 1 is gone;
- a jail that reported no exit code never ran the command: `JailFailure`, with what it said;
- at the timeout, pid 1 is killed through a pidfd (no other process can be hit), which ends every
  process of the namespace at once; the call returns once pid 1 is gone.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import selectors
import signal
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from gg.sandbox.jail.pids import PidsGroup, PidsUnavailable
from gg.sdk.command.end import CommandEnd, Exited, JailFailure, TimedOut
from gg.sdk.command.output import OutputTail

READ_BYTES = 1 << 16
KILL_WAIT_SECS = 5.0
ANNOUNCE_WAIT_SECS = 10.0
NICENESS = 10  # a busy command cannot starve gg, and cannot raise its priority back


Clock = Callable[[], float]


@dataclass(frozen=True)
class Start:
    """What pid 1 is given before it runs the command: resource limits (`resource.RLIMIT_*` to
    a value, soft and hard alike) and, for a root-opened jail, the pids group it joins."""

    limits: Mapping[int, int]
    group: PidsGroup | None = None


@dataclass
class Pipes:
    """The descriptors of one command: the jail's options (a memfd bubblewrap reads them from, so
    no command line shows them), and the status, block and go pipes as (read, write) ends. Each
    is closed once."""

    arguments: int
    status: tuple[int, int] = field(default_factory=os.pipe)
    block: tuple[int, int] = field(default_factory=os.pipe)
    go: tuple[int, int] = field(default_factory=os.pipe)
    _children_closed: bool = field(default=False, repr=False)

    @classmethod
    def holding(cls, arguments: list[str]) -> Pipes:
        """Pipes whose options file holds `arguments`. Raises `JailFailure` for an argument
        holding NUL (it would end the argument there)."""
        if any("\0" in argument for argument in arguments):
            raise JailFailure("an argument holds a NUL character")
        fd = os.memfd_create("gg-jail-arguments")
        os.write(fd, b"".join(argument.encode() + b"\0" for argument in arguments))
        os.lseek(fd, 0, os.SEEK_SET)
        return cls(fd)

    def child_ends(self) -> list[int]:
        return [self.arguments, self.status[1], self.block[0]]

    def bwrap_options(self) -> list[str]:
        status, block = str(self.status[1]), str(self.block[0])
        return ["--json-status-fd", status, "--block-fd", block, "--args", str(self.arguments)]

    def close_child_ends(self) -> None:
        if not self._children_closed:
            self._children_closed = True
            for fd in (*self.child_ends(), self.go[0]):
                os.close(fd)

    def close(self) -> None:
        self.close_child_ends()
        os.close(self.status[0])
        os.close(self.block[1])
        os.close(self.go[1])


def spawn(bwrap: str, pipes: Pipes, command: list[str]) -> subprocess.Popen[bytes]:
    """Start bubblewrap, named `bwrap` in its own command line, to run `command`. Raises
    `JailFailure` when it cannot be started."""
    try:
        return subprocess.Popen(
            ["bwrap", *pipes.bwrap_options(), *command],
            executable=bwrap,
            stdin=pipes.go[0],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={},
            cwd="/",
            pass_fds=pipes.child_ends(),
            process_group=0,
        )
    except OSError as error:
        raise JailFailure(f"bubblewrap could not be started: {error.strerror}") from None
    finally:
        pipes.close_child_ends()


def supervise(
    process: subprocess.Popen[bytes], pipes: Pipes, start: Start, timeout_secs: float, clock: Clock
) -> CommandEnd:
    """Follow a started jail to its end (see the module's rules)."""
    assert process.stdout is not None
    deadline, tail, status = clock() + timeout_secs, OutputTail(), _Status(pipes.status[0])
    pid = status.pid_one(clock() + ANNOUNCE_WAIT_SECS, clock)
    pidfd = None if pid is None else _child_pidfd(pid, process.pid)
    try:
        if pid is not None and _released(pid, start, pipes):
            if _ended_by(deadline, process, pidfd, tail, clock):
                return _ended(status, tail)
            _kill(process, pidfd)
            _read(process.stdout, tail, clock() + KILL_WAIT_SECS, clock)
            return TimedOut(timeout_secs, tail.shown())
        _kill(process, pidfd)
        _read(process.stdout, tail, clock() + KILL_WAIT_SECS, clock)
        raise JailFailure(tail.shown().text.strip() or "the jail did not start its first process")
    finally:
        if process.poll() is None:
            _kill(process, pidfd)
        if pidfd is not None:
            os.close(pidfd)
        process.stdout.close()


def _ended_by(
    deadline: float, process: subprocess.Popen[bytes], pidfd: int | None, tail: OutputTail, clock: Clock
) -> bool:
    """Whether the command ended by `deadline`: its output closed, bubblewrap exited and the
    jail's pid 1 gone."""
    assert process.stdout is not None
    return (
        _read(process.stdout, tail, deadline, clock)
        and _waited(process, deadline, clock)
        and _gone(pidfd, deadline - clock())
    )


def _ended(status: _Status, tail: OutputTail) -> Exited:
    exit_code = status.exit_code()
    if exit_code is None:
        raise JailFailure(tail.shown().text.strip() or "the jail ended before the command ran")
    return Exited(exit_code, tail.shown())


class _Status:
    """bubblewrap's status reports: JSON documents, one after another, on one pipe."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._text = ""
        self._reports: list[dict[str, Any]] = []

    def pid_one(self, deadline: float, clock: Clock) -> int | None:
        """The host pid of the jail's pid 1; None when bubblewrap reports none in time."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._fd, selectors.EVENT_READ)
            while clock() < deadline and not self._find("child-pid"):
                if selector.select(deadline - clock()) and not self._take(os.read(self._fd, READ_BYTES)):
                    break
        found = self._find("child-pid")
        return None if found is None else int(found)

    def exit_code(self) -> int | None:
        """The command's exit code, read once bubblewrap has exited; None if it never ran."""
        os.set_blocking(self._fd, False)
        with contextlib.suppress(BlockingIOError):
            while self._take(os.read(self._fd, READ_BYTES)):
                pass
        found = self._find("exit-code")
        return None if found is None else int(found)

    def _take(self, chunk: bytes) -> bool:
        self._text += chunk.decode("utf-8", "replace")
        decoder = json.JSONDecoder()
        while self._text.strip():
            try:
                report, end = decoder.raw_decode(self._text.lstrip())
            except ValueError:
                break
            self._text = self._text.lstrip()[end:]
            if isinstance(report, dict):
                self._reports.append(report)
        return bool(chunk)

    def _find(self, key: str) -> Any:
        return next((report[key] for report in self._reports if key in report), None)


def _child_pidfd(pid: int, parent: int) -> int | None:
    """A pidfd of `pid` while it is still `parent`'s child; None once it has gone (a command
    that already ended), so a recycled pid is never held."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return None
    try:
        with open(f"/proc/{pid}/status") as status:
            ppid = next(int(line.split()[1]) for line in status if line.startswith("PPid:"))
    except (OSError, StopIteration):
        ppid = None
    if ppid != parent:
        os.close(pidfd)
        return None
    return pidfd


def _released(pid: int, start: Start, pipes: Pipes) -> bool:
    """Give the waiting pid 1 its limits, priority and group, then let it run the command; False
    when it is gone already (its setup failed)."""
    try:
        for limit, value in start.limits.items():
            resource.prlimit(pid, limit, (value, value))
        os.setpriority(os.PRIO_PROCESS, pid, NICENESS)
        if start.group is not None:
            start.group.admit(pid)
    except ProcessLookupError:
        return False
    except PidsUnavailable as refusal:
        raise JailFailure(refusal.reason) from None
    try:
        os.write(pipes.go[1], b"go\n")
        os.write(pipes.block[1], b"\0")
    except BrokenPipeError:
        return False
    return True


def _read(stream: IO[bytes], tail: OutputTail, deadline: float, clock: Clock) -> bool:
    """Read `stream` into `tail` until its end (True) or the deadline (False)."""
    fd = stream.fileno()
    os.set_blocking(fd, False)
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while clock() < deadline:
            if not selector.select(deadline - clock()):
                continue
            try:
                chunk = os.read(fd, READ_BYTES)
            except BlockingIOError:
                continue
            if not chunk:
                return True
            tail.feed(chunk)
    return False


def _waited(process: subprocess.Popen[bytes], deadline: float, clock: Clock) -> bool:
    try:
        process.wait(max(0.0, deadline - clock()))
    except subprocess.TimeoutExpired:
        return False
    return True


def _gone(pidfd: int | None, timeout_secs: float) -> bool:
    """Whether the jail's pid 1 has exited within `timeout_secs`. A pid namespace's pid 1 exits
    only after every other process in it is gone; a pid 1 not held had exited before."""
    if pidfd is None:
        return True
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    return bool(poller.poll(max(0, round(timeout_secs * 1000))))


def _kill(process: subprocess.Popen[bytes], pidfd: int | None) -> None:
    """End the jail: its pid 1, which takes the whole pid namespace with it, or bubblewrap's
    process group when pid 1 is not held (its death kills pid 1 too); the group as well if
    bubblewrap has not exited within `KILL_WAIT_SECS`."""
    with contextlib.suppress(ProcessLookupError):
        if pidfd is not None:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        else:
            os.killpg(process.pid, signal.SIGKILL)
    _gone(pidfd, KILL_WAIT_SECS)
    try:
        process.wait(KILL_WAIT_SECS)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
