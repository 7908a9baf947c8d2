"""How many agents take turns at once (`limits.maxParallel`), and how many of an arm's turns
compute at once (`gg.agents.leases`): a first-come, first-served gate.

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
- once the run stops, every agent in line is let go without a slot (`acquire` answers False);
- a turn in line may name its home (the guest holding its agent's warm scope), and the line may
  be told which guests are idle: which turn takes the next free slot is then
  `gg.agents.seats`' to decide, so one whose guest is idle may go first; with no homes named the
  line is first come, first served.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Set
from contextlib import contextmanager
from dataclasses import replace

from gg.agents.seats import PASSES, Home, Places, Waiting, seat
from gg.loop.run import Ticket


class Scheduler:
    def __init__(
        self,
        slots: int,
        idle: Callable[[], Set[Home]] = frozenset,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._slots = slots
        self._clock = clock
        self._free = slots
        self._idle = idle  # the homes idle now
        self._line: deque[Ticket] = deque()
        self._waiting: dict[Ticket, Waiting] = {}
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
            self._waiting[ticket] = Waiting()
        return ticket

    def leave(self, ticket: Ticket) -> None:
        """Give up a place reserved in line without taking a turn."""
        with self._changed:
            self._leave_line(ticket, taken=False)

    def acquire(self, ticket: Ticket | None = None, home: Home = None) -> bool:
        """Take a slot in turn (at `ticket`'s place, or at the back of the line), as a turn whose
        agent's warm scope is at `home`; False when the run stopped before one came free."""
        with self._changed:
            if ticket is None or ticket not in self._line:
                ticket = Ticket()
                self._line.append(ticket)
            self._waiting[ticket] = Waiting(home, since=self._clock())
            return self._take(ticket, anyway=False)

    def release(self) -> None:
        with self._changed:
            self._free += 1
            self._changed.notify_all()

    @contextmanager
    def stepped_aside(self, home: Home = None, *, holding: bool = False) -> Generator[None]:
        """Give the caller's slot back for the block, then take one again from the head of the
        line, however the block ended (at once, when it was interrupted): as a turn at `home`,
        unless the caller is `holding` its guest all along (then the first slot free)."""
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
                    self._waiting[ticket] = Waiting(home, PASSES if holding else 0, self._clock())
                    self._take(ticket, anyway=True)

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._line.clear()
            self._waiting.clear()
            self._changed.notify_all()

    def _take(self, ticket: Ticket, *, anyway: bool) -> bool:
        """Wait at `ticket`'s place until it is seated (the condition held); once stopped, take a
        slot `anyway` (a turn that must still give one back) or not at all. Interrupted while
        waiting, the ticket leaves the line, taking a slot `anyway` at once."""
        try:
            while not self._stopped:
                if self._seated(ticket):
                    return True
                self._changed.wait(self._patience_left(ticket))
        except BaseException:
            self._leave_line(ticket, taken=anyway)
            raise
        self._leave_line(ticket, taken=anyway)
        return False

    def _seated(self, ticket: Ticket) -> bool:
        """Whether the next seating is `ticket`'s: if so, its slot is taken and the turns ahead of
        it are marked passed (the condition held)."""
        line = [self._waiting[waiting] for waiting in self._line]
        idle = self._idle() if any(waiting.home is not None for waiting in line) else frozenset()
        seating = seat(line, Places(self._free, self._slots, idle, self._clock()))
        if seating is None or self._line[seating] is not ticket:
            return False
        self._free -= 1
        for ahead in list(self._line)[:seating]:
            waiting = self._waiting[ahead]
            self._waiting[ahead] = replace(waiting, passed=waiting.passed + 1)
        self._line.remove(ticket)
        del self._waiting[ticket]
        self._changed.notify_all()
        return True

    def _patience_left(self, ticket: Ticket) -> float | None:
        """How long `ticket`'s turn may still wait for its own guest before it takes a spare slot
        (None: it waits for no guest of its own, or no longer, and only a change in line wakes it)."""
        waiting = self._waiting.get(ticket)
        left = None if waiting is None or waiting.home is None else waiting.patience_left(self._clock())
        return left if left is not None and left > 0 else None

    def _leave_line(self, ticket: Ticket, *, taken: bool) -> None:
        """`ticket` out of the line without being seated (the condition held), a slot `taken`
        all the same; the line moves on."""
        if ticket in self._line:
            self._line.remove(ticket)
        self._waiting.pop(ticket, None)
        if taken:
            self._free -= 1
        self._changed.notify_all()
