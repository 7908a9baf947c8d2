"""How many agents take turns at once (`limits.maxParallel`): a first-come, first-served gate.

Rules kept here:
- a slot is held for a turn, never for a life: an agent takes one as each turn starts and gives it
  back when the turn ends, so agents in line take turns in the order they queued; with every slot
  taken the next agent waits in line, and none is ever refused;
- an agent's place in line may be taken for it before its thread reaches the gate (`reserve`):
  an agent started on a thread of its own queues the moment it is started, so the order of the
  line is the order agents were started in, never the order their threads happened to run;
- an agent waiting in a host call on other agents (`waitForSubagents`) steps aside: its slot is
  free for the agents it waits on until the wait ends, however it ends (a wait that fails takes
  its slot back too); it then resumes the turn it began, so it comes back at the head of the
  line, ahead of every turn not yet begun. An interruption of the wait (Ctrl-C, SIGTERM) takes
  the slot back at once, without waiting in line, so the run stops without waiting for another
  agent's turn to end; so does one arriving while it waits in line to take the slot back;
- a wait in line that is interrupted leaves the line: its place never blocks the agents behind it;
- once the run stops, every agent in line is let go without a slot (`acquire` answers False).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Generator
from contextlib import contextmanager

from gg.loop.run import Ticket


class Scheduler:
    def __init__(self, slots: int) -> None:
        self._free = slots
        self._line: deque[Ticket] = deque()
        self._stopped = False
        self._changed = threading.Condition()

    @property
    def stopped(self) -> bool:
        return self._stopped

    def reserve(self) -> Ticket:
        """A place at the back of the line, taken now for an agent that will `acquire` with it."""
        ticket = Ticket()
        with self._changed:
            self._line.append(ticket)
        return ticket

    def leave(self, ticket: Ticket) -> None:
        """Give up a place reserved in line without taking a turn."""
        with self._changed:
            if ticket in self._line:
                self._line.remove(ticket)
                self._changed.notify_all()

    def acquire(self, ticket: Ticket | None = None) -> bool:
        """Take a slot in turn (at `ticket`'s place, or at the back of the line); False when the
        run stopped before one came free."""
        with self._changed:
            if ticket is None or ticket not in self._line:
                ticket = Ticket()
                self._line.append(ticket)
            return self._take(ticket, anyway=False)

    def release(self) -> None:
        with self._changed:
            self._free += 1
            self._changed.notify_all()

    @contextmanager
    def stepped_aside(self) -> Generator[None]:
        """Give the caller's slot back for the block, then take one again from the head of the
        line, however the block ended (at once, when it was interrupted)."""
        self.release()
        interrupted = False
        try:
            yield
        except (KeyboardInterrupt, SystemExit):
            interrupted = True
            raise
        finally:
            with self._changed:
                if interrupted:
                    self._free -= 1
                else:
                    ticket = Ticket()
                    self._line.appendleft(ticket)
                    self._take(ticket, anyway=True)

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._line.clear()
            self._changed.notify_all()

    def _take(self, ticket: Ticket, *, anyway: bool) -> bool:
        """Wait at `ticket`'s place for a slot (the condition held); once stopped, take it
        `anyway` (a turn that must still give one back) or not at all. Interrupted while waiting,
        the ticket leaves the line, taking the slot `anyway` at once."""
        try:
            while not self._stopped and not (self._line[0] is ticket and self._free > 0):
                self._changed.wait()
        except BaseException:
            self._leave_line(ticket, taken=anyway)
            raise
        self._leave_line(ticket, taken=anyway or not self._stopped)
        return not self._stopped

    def _leave_line(self, ticket: Ticket, *, taken: bool) -> None:
        """`ticket` out of the line (the condition held), its slot `taken`; the line moves on."""
        if ticket in self._line:
            self._line.remove(ticket)
        if taken:
            self._free -= 1
        self._changed.notify_all()
