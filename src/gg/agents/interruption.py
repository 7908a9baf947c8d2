"""How a run is stopped from outside: the operator's Ctrl-C (SIGINT) or a SIGTERM (`timeout`,
systemd and `docker stop` send it).

Rules kept here:
- both reach the run as a `KeyboardInterrupt` on the main thread: SIGINT as Python raises it,
  SIGTERM as `Terminated`, raised by the handlers the `gg` command takes as a command begins
  (`take_stops`), so every place that lets a Ctrl-C through lets a SIGTERM through too; only
  the first is raised: one more is held while the first is handled, a third leaves at once
  (but for the `session-end` hook, which the next stop cuts short: `stops_raised`);
- the run's end names the signal that stopped it (`message_of`), and the run exits, and records,
  128 + that signal's number (`gg.loop.status.exit_code_of`): 130 for Ctrl-C, 143 for SIGTERM;
- a stop that says why (`Ended`, raised where the run waits on its model) is recorded with its
  own words and the signal it names (Ctrl-C's SIGINT when it names none), as Ctrl-C's is
  otherwise;
- once the run's end is recorded, a stop no longer stops anything: `gg run` leaves at once with
  the exit code its record holds (`leave_on_stop`);
- a run on a thread other than the main one, which no signal reaches, is stopped from outside by
  the `OutsideStop` that thread started it under (`stopped_from_outside`): every agent is recorded
  stopped and the program running ends at once, and the run ends as the stop handed over says.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Callable, Generator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from types import FrameType

from gg.exits import SIGNAL_EXIT_BASE, is_gg_command

INTERRUPTED_MESSAGE = "interrupted by the operator (Ctrl-C)"
TERMINATED_MESSAGE = "interrupted by SIGTERM (the process was told to stop)"


class Terminated(KeyboardInterrupt):
    """A SIGTERM, raised where the main thread stood when it arrived."""


class Ended(KeyboardInterrupt):
    """A stop from outside the run that says why (`gg mcp serve`'s client closed the session):
    `message` is the run's last word on it."""

    def __init__(self, message: str, signum: int = signal.SIGINT) -> None:
        super().__init__(message)
        self.message = message
        self.signum = signum


class OutsideStop:
    """How a run on a thread of its own is stopped from another: `stop(why)` stops it as a Ctrl-C
    would, the run ending as `why` says; a stop given before the run bound its action acts as the
    run binds it. Only the first stop counts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.given: KeyboardInterrupt | None = None
        self._act: Callable[[], None] | None = None

    def stop(self, why: KeyboardInterrupt) -> None:
        with self._lock:
            if self.given is not None:
                return
            self.given = why
            act = self._act
        if act is not None:
            act()

    def bind(self, act: Callable[[], None]) -> None:
        """What stops the run (its agents recorded stopped, its guests closed)."""
        with self._lock:
            self._act = act
            given = self.given
        if given is not None:
            act()


_HELD: ContextVar[OutsideStop | None] = ContextVar("gg_outside_stop", default=None)


@contextmanager
def stopped_from_outside(stop: OutsideStop) -> Generator[None]:
    """While inside, a run started on this thread is stopped by `stop`."""
    token = _HELD.set(stop)
    try:
        yield
    finally:
        _HELD.reset(token)


def held_stop() -> OutsideStop | None:
    """The stop a run started here is stopped by from outside, if its thread holds one."""
    return _HELD.get()


def signal_of(stop: KeyboardInterrupt) -> int:
    """The number of the signal that raised `stop` (or that an `Ended` names)."""
    if isinstance(stop, Ended):
        return stop.signum
    return signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT


def message_of(stop: KeyboardInterrupt) -> str:
    """The run's last word on what stopped it."""
    if isinstance(stop, Ended):
        return stop.message
    return TERMINATED_MESSAGE if isinstance(stop, Terminated) else INTERRUPTED_MESSAGE


def said_of(stop: KeyboardInterrupt) -> str:
    """How `gg run` names the stop to the operator: `interrupted`, `interrupted by SIGTERM`."""
    return "interrupted by SIGTERM" if isinstance(stop, Terminated) else "interrupted"


class _Stops:
    """What the process's stops have done so far (see `take_stops`)."""

    first: KeyboardInterrupt | None = None  # the stop being handled
    held = 0  # stops that came after it


_STOPS = _Stops()
_STOPPED = (signal.SIGINT, signal.SIGTERM)


def take_stops() -> None:
    """From now on a Ctrl-C (unless the process was started ignoring it) or a SIGTERM raises a
    stop on the main thread (`KeyboardInterrupt`, `Terminated`): the first one only. While it is
    being handled (every agent stopped, the run's end recorded), a second stop is held, so it can
    neither cut that short nor change the exit code; a third leaves at once with the first's
    code, saying so (the escape from a stop that hangs)."""
    _STOPS.first, _STOPS.held = None, 0
    for signum in _STOPPED:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _stop)


@contextmanager
def taken_stops() -> Generator[None]:
    """`take_stops` while inside; the handlers before are put back on the way out, unless the
    process is leaving (`leave_on_stop`)."""
    before = {signum: signal.getsignal(signum) for signum in _STOPPED}
    take_stops()
    try:
        yield
    finally:
        for signum, handler in before.items():
            if signal.getsignal(signum) is _stop and handler is not None:
                signal.signal(signum, handler)


@contextmanager
def stops_raised() -> Generator[None]:
    """While inside, the next stop is raised even after a first one was (a hook running as the
    run ends, which the operator may cut short); after, stops are held again."""
    first, _STOPS.first = _STOPS.first, None
    try:
        yield
    finally:
        _STOPS.first = first or _STOPS.first


def _stop(signum: int, frame: FrameType | None) -> None:
    del frame
    if _STOPS.first is None:
        _STOPS.first = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
        raise _STOPS.first
    _STOPS.held += 1
    if _STOPS.held >= 2:
        said = f"\ngg: {said_of(_STOPS.first)} again; leaving before the run's end was recorded.\n"
        with suppress(OSError):
            os.write(2, said.encode())
        os._exit(SIGNAL_EXIT_BASE + signal_of(_STOPS.first))


def leave_on_stop(code: int) -> None:
    """From now on a Ctrl-C or SIGTERM ends the `gg` command at once with exit `code`, what its
    record already says (at the interpreter's last steps, where no handler runs, it is ignored):
    once a command's work (a run's end) is kept, a stop can change neither, and what is left is
    leaving (a stop raised there would exit 143 beside a recorded `completed`, be printed as an
    ignored exception, or kill gg by the signal once Python puts the default handlers back).
    Nothing changes in a process that is not the `gg` command."""
    if not is_gg_command():
        return

    def leave(signum: int, frame: FrameType | None) -> None:
        del signum, frame
        for stream in (sys.stdout, sys.stderr):
            with suppress(Exception):
                stream.flush()
        os._exit(code)

    for signum in _STOPPED:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, leave)
    atexit.register(_ignore_stops)


def _ignore_stops() -> None:
    """The last of leaving: Python's finalization puts back the default action of every signal
    it handled (death by the signal), and runs no handler after this, so a stop is ignored."""
    for signum in _STOPPED:
        signal.signal(signum, signal.SIG_IGN)
