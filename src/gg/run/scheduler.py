"""How many agents take turns at once (`limits.maxParallel`): a first-come, first-served gate.

Rules kept here:
- an agent holds a slot for the whole of each turn and gives it back when the turn ends; with
  every slot taken, the next agent waits in line, and none is ever refused;
- an agent waiting in a host call on other agents (`waitForSubagents`) steps aside: its slot is
  free for the agents it waits on until the wait ends, when it queues for one again;
- once the run stops, every agent in line is let go without a slot (`acquire` answers False).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Generator
from contextlib import contextmanager


class Scheduler:
    def __init__(self, slots: int) -> None:
        self._free = slots
        self._line: deque[object] = deque()
        self._stopped = False
        self._changed = threading.Condition()

    @property
    def stopped(self) -> bool:
        return self._stopped

    def acquire(self) -> bool:
        """Take a slot in turn; False when the run stopped before one came free."""
        return self._take(anyway=False)

    def _take(self, *, anyway: bool) -> bool:
        """Wait in line for a slot; once stopped, take it `anyway` (a turn that must still give one
        back) or not at all."""
        ticket = object()
        with self._changed:
            self._line.append(ticket)
            while not self._stopped and not (self._line[0] is ticket and self._free > 0):
                self._changed.wait()
            self._line.remove(ticket)
            self._changed.notify_all()
            if self._stopped and not anyway:
                return False
            self._free -= 1
            return not self._stopped

    def release(self) -> None:
        with self._changed:
            self._free += 1
            self._changed.notify_all()

    @contextmanager
    def stepped_aside(self) -> Generator[None]:
        """Give the caller's slot back for the block, then queue for one again."""
        self.release()
        try:
            yield
        finally:
            self._take(anyway=True)

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
