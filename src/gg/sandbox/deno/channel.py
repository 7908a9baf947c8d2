"""The direct channel between gg and the Worker running one program: two named pipes in the
guest's private folder, made for the run and removed after it (`guest/boot.js` is the other
end). The Deno main thread never relays a call, so a call costs one round trip between two
threads.

Rules kept here:
- the Worker writes JSON lines to `calls`: each call, the lines its program logged, and `end`
  once its last line is out; gg writes one reply line to `replies` for each call, in order;
- gg holds both pipes open for reading and writing and never blocks on them, so neither open
  waits for the Worker, and a reply is written only while its writer allows (the run's deadline,
  and no word from the guest's main channel, which says when the Worker is gone);
- once the run is over gg closes and removes both: a Worker still writing then gets a broken
  pipe and one still reading the end of the file, so no Worker that outlived its run can take a
  later run's replies;
- a read asks for at most what a pipe holds (`READ_BYTES`, 64 KiB): a pipe never gives more, and
  a larger buffer is a fresh mapping for every call taken;
- a line too deeply nested for Python's JSON reader is a call whose arguments are refused, as on
  the main channel (`gg.sandbox.deno.wire`).
"""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Callable
from typing import Any

from gg.sandbox.deno.wire import decode

READ_BYTES = 1 << 16  # what a pipe holds: a larger read gets no more, and costs a fresh mapping
CHANNEL_FOLDER = "ch"  # the sub-folder of a guest's private folder the pipes are made in
_OPEN_FLAGS = os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC


class RunChannel:
    """The two pipes of run `run_id`, made in `folder`; `paths` names them for the guest."""

    def __init__(self, folder: str, run_id: int) -> None:
        self.paths = {
            "calls": os.path.join(folder, f"c{run_id}"),
            "replies": os.path.join(folder, f"r{run_id}"),
        }
        self._buffer = bytearray()
        self._fds: list[int] = []
        try:
            for path in self.paths.values():
                os.mkfifo(path, 0o600)
                self._fds.append(os.open(path, _OPEN_FLAGS))
        except OSError:
            self.close()
            raise
        self._calls, self._replies = self._fds

    def fileno(self) -> int:
        """What to poll for the Worker's lines."""
        return self._calls

    def messages(self) -> list[dict[str, Any]]:
        """Every whole message the Worker has written so far, in order, without waiting."""
        try:
            chunk = os.read(self._calls, READ_BYTES)
        except BlockingIOError:
            return []
        buffer = self._buffer
        if not buffer and chunk.find(b"\n") == len(chunk) - 1:
            return [decode(memoryview(chunk)[:-1])]  # one whole line: the usual call
        start = len(buffer)
        buffer += chunk
        found: list[dict[str, Any]] = []
        begin = 0
        view = memoryview(buffer)
        while (cut := buffer.find(b"\n", start)) >= 0:
            found.append(decode(view[begin:cut]))
            begin = start = cut + 1
        view.release()
        del buffer[:begin]
        return found

    def reply(self, line: bytes, allowed: Callable[[], float], watched: int) -> None:
        """Write one reply line, waiting for room while `allowed()` seconds are left and the fd
        `watched` (the guest's main channel) has nothing to say."""
        data = memoryview(line + b"\n")
        poller = None
        while data:
            try:
                data = data[os.write(self._replies, data) :]
                continue
            except BlockingIOError:
                pass
            if poller is None:
                poller = select.poll()
                poller.register(self._replies, select.POLLOUT)
                poller.register(watched, select.POLLIN)
            left = allowed()
            events = poller.poll(max(left, 0.0) * 1000) if left > 0 else []
            if not events or any(fd == watched for fd, _ in events):
                return

    def close(self) -> None:
        """Close and remove both pipes."""
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = []
        for path in self.paths.values():
            with contextlib.suppress(OSError):
                os.unlink(path)
