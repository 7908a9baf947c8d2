"""The sentinel: one small process per gg process that stops every guest gg leaves behind.

Every guest process is the leader of a session of its own (`gg.sandbox.process`), so its process
group holds it and everything it starts (a Python worker's engine processes included). gg tells
the sentinel each group as it starts and again once it is gone; when gg goes away, however it
went (`kill -9`, SIGTERM, a crash, a normal exit), the sentinel kills every group still named and
exits. Nothing depends on the thread that started a guest: a guest started by an agent's thread
outlives that thread and dies with gg.

Rules kept here:
- the sentinel reads lines on its stdin, a pipe whose write end only gg holds (it is never
  inherited: every guest is started with the other descriptors closed); `+<pgid> <folder>` names
  a group and its guest's private folder (in hex, so no byte of a path can end or split a line),
  `-<pgid>` forgets both; the end of the pipe is gg's
  end: it kills every group still named, then removes their folders, so a guest gg could not
  stop and clean up itself (gg killed, or leaving while a thread of its own still stopped one)
  leaves neither a process nor a folder;
- it runs in a session of its own, so a signal sent to gg's terminal or process group does not
  reach it, and it ignores SIGINT and SIGHUP;
- it is started with the first guest; one that died is started again at the next registration,
  and told every group still alive;
- a group is forgotten only after its processes were killed, its leader reaped and its folder
  removed, so the sentinel never signals a group id that was given to someone else.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from typing import IO

SCRIPT = """
import os, shutil, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
groups = {}
for line in sys.stdin.buffer:
    sign, rest = line[:1], line[1:].rstrip(b"\\n")
    number, _, folder = rest.partition(b" ")
    if number.isdigit():
        if sign == b"+":
            groups[int(number)] = bytes.fromhex(folder.decode())
        else:
            groups.pop(int(number), None)
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
for folder in groups.values():
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
"""


class Sentinel:
    """gg's side of the sentinel: the groups it was told of, and the pipe it tells them on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: dict[int, bytes] = {}  # each group, and its private folder
        self._pipe: IO[bytes] | None = None
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """The sentinel's own process id, once it was started."""
        return None if self._process is None else self._process.pid

    def watch(self, group: int, folder: str = "") -> None:
        """Have `group` killed, and then its private `folder` removed, if gg goes away before
        `forget(group)`."""
        with self._lock:
            self._groups[group] = os.fsencode(folder)
            self._tell(_named(group, self._groups[group]))

    def forget(self, group: int) -> None:
        """`group` is gone (killed and reaped, its folder removed): the sentinel no longer stands
        for it."""
        with self._lock:
            self._groups.pop(group, None)
            if self._pipe is not None:
                self._tell(b"-%d\n" % group)

    def _tell(self, line: bytes) -> None:
        for _ in range(2):
            pipe = self._pipe if self._pipe is not None and self._alive() else self._start()
            try:
                pipe.write(line)
                pipe.flush()
                return
            except (BrokenPipeError, ValueError):
                self._pipe = None

    def _alive(self) -> bool:
        return self._pipe is not None and self._process is not None and self._process.poll() is None

    def _start(self) -> IO[bytes]:
        """A new sentinel, told every group alive; the write end of its pipe stays in gg."""
        if self._pipe is not None:
            with contextlib.suppress(OSError):
                self._pipe.close()
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", SCRIPT],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            env={"PATH": os.defpath},
            start_new_session=True,
        )
        assert self._process.stdin is not None
        self._pipe = self._process.stdin
        for group, folder in self._groups.items():
            self._pipe.write(_named(group, folder))
        return self._pipe


def _named(group: int, folder: bytes) -> bytes:
    """The line that names `group` and its folder to the sentinel."""
    return b"+%d %s\n" % (group, folder.hex().encode())


SENTINEL = Sentinel()


def kill_group(group: int) -> None:
    """SIGKILL to every process of `group`; nothing when it is already gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
