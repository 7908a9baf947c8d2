"""How a run is stopped from outside: the operator's Ctrl-C (SIGINT) or a SIGTERM (`timeout`,
systemd and `docker stop` send it).

Rules kept here:
- both reach the run as a `KeyboardInterrupt` on the main thread: SIGINT as Python raises it,
  SIGTERM as `Terminated`, raised by the handler `gg run` holds while the run goes
  (`sigterm_interrupts`), so every place that lets a Ctrl-C through lets a SIGTERM through too;
- the run's end names the signal that stopped it (`message_of`), and the run exits, and records,
  128 + that signal's number (`gg.loop.status.exit_code_of`): 130 for Ctrl-C, 143 for SIGTERM;
- a stop that says why (`Ended`, raised where the run waits on its model) is recorded with its
  own words, as Ctrl-C's is otherwise.
"""

from __future__ import annotations

import signal
from collections.abc import Generator
from contextlib import contextmanager
from types import FrameType

INTERRUPTED_MESSAGE = "interrupted by the operator (Ctrl-C)"
TERMINATED_MESSAGE = "interrupted by SIGTERM (the process was told to stop)"


class Terminated(KeyboardInterrupt):
    """A SIGTERM, raised where the main thread stood when it arrived."""


class Ended(KeyboardInterrupt):
    """A stop from outside the run that says why (`gg mcp serve`'s client closed the session):
    `message` is the run's last word on it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def signal_of(stop: KeyboardInterrupt) -> int:
    """The number of the signal that raised `stop`."""
    return signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT


def message_of(stop: KeyboardInterrupt) -> str:
    """The run's last word on what stopped it."""
    if isinstance(stop, Ended):
        return stop.message
    return TERMINATED_MESSAGE if isinstance(stop, Terminated) else INTERRUPTED_MESSAGE


def said_of(stop: KeyboardInterrupt) -> str:
    """How `gg run` names the stop to the operator: `interrupted`, `interrupted by SIGTERM`."""
    return "interrupted by SIGTERM" if isinstance(stop, Terminated) else "interrupted"


@contextmanager
def sigterm_interrupts() -> Generator[None]:
    """While inside, a SIGTERM raises `Terminated` on the main thread; the handler before is put
    back on the way out."""
    before = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    del signum, frame
    raise Terminated
