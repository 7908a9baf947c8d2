"""The exit codes of gg's commands, one home: every command, and the code each run ending maps
to (`gg.loop.status`), reads them here.

- 0: what was asked was done (a session that ended, a table printed);
- 1 (`INCOMPLETE_EXIT`): gg's own defect, a record or a model it could not reach, a hook that
  could not judge (`hook_error`), or a command that did only part of what was asked;
- 2 (`REFUSED_EXIT`): refused before anything ran (a capability set, study, store, port or
  argument found wanting);
- 3 (`CEILING_EXIT`): a ceiling stopped the run;
- 128 + the number of the signal that stopped it (`SIGNAL_EXIT_BASE`): 130 for Ctrl-C (SIGINT),
  143 for SIGTERM; while the `gg` command starts (its modules importing, its command line
  parsed), either signal ends it at once, silently, with that code (`quiet_start`), until a
  command runs and takes them over (`hand_signals_over`); a signal the process was started
  ignoring stays ignored, and gg imported as a library leaves the process's signals alone.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

DONE_EXIT = 0
INCOMPLETE_EXIT = 1
REFUSED_EXIT = 2
CEILING_EXIT = 3
SIGNAL_EXIT_BASE = 128

_QUIETED = (signal.SIGINT, signal.SIGTERM)
_before: dict[int, Any] = {}  # the handlers `quiet_start` replaced
_handed: list[bool] = []  # one entry once they were handed over to a command


def quiet_start() -> None:
    """When this process is the `gg` command, end it at once on SIGINT or SIGTERM until a command
    runs."""
    if os.path.basename(sys.argv[0]) != "gg" or threading.current_thread() is not threading.main_thread():
        return
    for signum in _QUIETED:
        if signum not in _before and signal.getsignal(signum) is not signal.SIG_IGN:
            _before[signum] = signal.signal(signum, _exit_at_once)


def hand_signals_over(take: Callable[[], None]) -> None:
    """A command begins and meets its stops itself: `take` replaces the handlers `quiet_start`
    set, with no moment between (it leaves a signal the process was started ignoring ignored).
    Nothing happens when this process is not the `gg` command."""
    if _before:
        _before.clear()
        _handed.append(True)
        take()


def is_gg_command() -> bool:
    """Whether this process is the `gg` command, its signals handed over to its command (never
    gg imported as a library, nor a command invoked inside another program, as tests do)."""
    return bool(_handed)


def _exit_at_once(signum: int, frame: FrameType | None) -> None:
    del frame
    os._exit(SIGNAL_EXIT_BASE + signum)
