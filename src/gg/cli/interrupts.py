"""How a stop from outside ends the `gg` command wherever it lands: Ctrl-C (SIGINT) exits 130 and
SIGTERM 143 (128 + the signal's number), with at most one line, never Click's `Aborted!`.

Rules kept here:
- while the `gg` command's own modules import and its command line is parsed, either signal ends
  the process at once, silently, with its code (`quiet_until_invoked`, called as this module, the
  command line's first, imports); nothing exists yet that could be kept; a signal the process was
  started ignoring stays ignored;
- once a command runs, Ctrl-C is a `KeyboardInterrupt` again and SIGTERM is as it was, so a
  command that keeps a record (`gg run`, `gg study run`, `gg mcp serve`) meets the stop itself and
  says what it kept; one that reaches the command line (`GgGroup`) ends it with one line naming
  the stop, and its code.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import click

from gg.exits import SIGNAL_EXIT_BASE

_QUIETED = (signal.SIGINT, signal.SIGTERM)
_before: dict[int, Any] = {}  # the handlers `quiet_until_invoked` replaced, put back on invoke


def quiet_until_invoked() -> None:
    """When this process is the `gg` command, end it at once on SIGINT or SIGTERM until a command
    runs (imported as a library, gg leaves the process's signals alone)."""
    if Path(sys.argv[0]).name != "gg" or not _on_main_thread():
        return
    for signum in _QUIETED:
        if signal.getsignal(signum) is not signal.SIG_IGN:  # one ignored from the start stays so
            _before[signum] = signal.signal(signum, _exit_at_once)


class GgGroup(click.Group):
    """The `gg` group: a stop that reaches it from any command ends the command with one line."""

    def invoke(self, ctx: click.Context) -> Any:
        _hand_signals_back()
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as stop:
            _end_on(stop)


def _end_on(stop: KeyboardInterrupt) -> NoReturn:
    from gg.agents.interruption import said_of, signal_of

    click.echo(f"\ngg: {said_of(stop)}.", err=True)
    sys.exit(SIGNAL_EXIT_BASE + signal_of(stop))


def _hand_signals_back() -> None:
    while _before:
        signum, handler = _before.popitem()
        signal.signal(signum, handler)


def _exit_at_once(signum: int, frame: FrameType | None) -> None:
    del frame
    os._exit(SIGNAL_EXIT_BASE + signum)


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


quiet_until_invoked()
