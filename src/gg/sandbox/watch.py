"""A running program's watch: its time ceiling (`Deadline`) and its guest's resident memory,
each read while gg waits on the guest's next message (`Watch`).

Rules kept here:
- a `Deadline` is a program's time ceiling on the wall clock; the time a call to an operation
  that waits on outside work (`Operation.waits_externally`: a shell, a sub-agent) spends on the
  host is credited back, every other host call runs on the clock; what is left of the run's time
  bounds it too, and is never credited: a program ends at the run's deadline at the latest;
- a `Watch` holds one running program to its deadline and, where the engine asks for it, its
  guest's resident memory to a limit, read every `WATCH_SECS` at most; a program past either is
  `Overran`, and its pool stops the guest at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection

from gg.deadline import RunLeft, unbounded, within
from gg.sandbox.process import GuestProcess

WATCH_SECS = 0.005  # how often a running guest's resident memory is read


class Deadline:
    """A program's time ceiling on `clock` (the wall clock), `secs` from now; the time spent
    serving a call to one of the `external` operations is added back, and so is the time the
    program waited for its engine before it began (`hold`, then `begin`). Whatever its own end,
    it passes once `run_left` (what is left of the run's time) reads 0."""

    def __init__(
        self,
        secs: float,
        external: Collection[str] = (),
        clock: Callable[[], float] = time.monotonic,
        run_left: RunLeft = unbounded,
    ) -> None:
        self._external = external
        self._clock = clock
        self._run_left = run_left
        self._secs = secs
        self._set = clock()
        self._end = self._set + secs

    def now(self) -> float:
        return self._clock()

    def remaining(self) -> float:
        return within(self._end - self._clock(), self._run_left())

    def passed(self) -> bool:
        return self.remaining() <= 0

    def restart(self, secs: float) -> None:
        """The ceiling starts again, `secs` from now."""
        self._secs = secs
        self._set = self._clock()
        self._end = self._set + secs

    def hold(self, most_secs: float) -> None:
        """The program waits for its engine before it begins: until it does, the deadline stands
        `most_secs` from now, the longest that wait may take."""
        self._end = self._clock() + most_secs

    def begin(self, waited_secs: float) -> None:
        """The program began `waited_secs` after the deadline was set: its ceiling counts from
        then."""
        self._end = self._set + waited_secs + self._secs

    def begin_now(self) -> None:
        """The program begins now: its ceiling counts from here."""
        self._end = self._clock() + self._secs

    def call(self, operation: str) -> CallServed:
        """The serving of one call to `operation` (a context): on the program's clock unless the
        operation waits on outside work."""
        return CallServed(self, True) if operation in self._external else ON_THE_CLOCK

    def give_back(self, secs: float) -> None:
        """`secs` the program spent waiting on outside work are off its clock."""
        self._end += secs


class CallServed:
    """The span of one call served for a program (`Deadline.call`): given back to its deadline
    when the call waits on outside work."""

    __slots__ = ("_began", "_deadline", "_external")

    def __init__(self, deadline: Deadline, external: bool) -> None:
        self._deadline = deadline
        self._external = external
        self._began = 0.0

    def __enter__(self) -> None:
        if self._external:
            self._began = self._deadline.now()

    def __exit__(self, *exc: object) -> None:
        if self._external:
            self._deadline.give_back(self._deadline.now() - self._began)


ON_THE_CLOCK = CallServed(Deadline(0.0), False)  # a call not given back: one span serves them all


class Overran(Exception):
    """A running program went past a ceiling gg holds it to: its time, or its guest's memory."""

    def __init__(self, memory: bool) -> None:
        super().__init__("past its memory ceiling" if memory else "past its time ceiling")
        self.memory = memory


class Watch:
    """The ceilings gg holds one running program to: its `deadline`, and, when `resident_limit`
    is given, the resident memory of its guest `process`: read every `WATCH_SECS` at most, the
    first time `WATCH_SECS` after the watch begins (the limit was set from a reading just taken)."""

    def __init__(
        self,
        deadline: Deadline,
        process: GuestProcess,
        resident_limit: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.deadline = deadline
        self._process = process
        self._limit = resident_limit
        self._clock = clock
        self._next_look = clock() + WATCH_SECS

    def hold_memory(self, resident_limit: int) -> None:
        """From now on, hold the guest's resident memory to `resident_limit` (set from a reading
        just taken: the first look comes `WATCH_SECS` later)."""
        self._limit = resident_limit
        self._next_look = self._clock() + WATCH_SECS

    def wait_secs(self) -> float:
        """How long to wait for the guest's next message. Raises `Overran` when the program is
        past its deadline or its guest past its resident limit."""
        remaining = self.deadline.remaining()
        if remaining <= 0:
            raise Overran(memory=False)
        if self._limit is None:
            return remaining
        now = self._clock()
        if now >= self._next_look:
            self._next_look = now + WATCH_SECS
            if self._process.resident_bytes() > self._limit:
                raise Overran(memory=True)
        return min(remaining, max(self._next_look - now, 0.0))
