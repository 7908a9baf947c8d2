"""How a stop from outside ends the `gg` command wherever it lands: Ctrl-C (SIGINT) exits 130 and
SIGTERM 143 (128 + the signal's number), with at most one line, never Click's `Aborted!`.

Rules kept here:
- while the `gg` command starts, either signal ends it at once, silently (`gg.exits.quiet_start`,
  called as the `gg` package imports); nothing exists yet that could be kept;
- once a command runs, Ctrl-C is a `KeyboardInterrupt` again and SIGTERM one too (`Terminated`,
  `gg.agents.interruption.take_stops`: the first stop only; one more is held while it is
  handled), so a command that keeps a record (`gg run`, `gg study run`, `gg mcp serve`) meets the
  stop itself and says what it kept; one that reaches the command line (`GgGroup`) ends it with
  one line naming the stop, and its code;
- once the command is done (its code known), a stop leaves at once with that code
  (`leave_on_stop`), never killing gg by the signal as Python's last steps would.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from gg.exits import DONE_EXIT, INCOMPLETE_EXIT, SIGNAL_EXIT_BASE, hand_signals_over


class GgGroup(click.Group):
    """The `gg` group: a stop that reaches it from any command ends the command with one line."""

    def invoke(self, ctx: click.Context) -> Any:
        from gg.agents.interruption import leave_on_stop, take_stops

        hand_signals_over(take_stops)
        try:
            result = super().invoke(ctx)
        except KeyboardInterrupt as stop:
            _end_on(stop)
        except BaseException as leaving:
            leave_on_stop(_exit_code(leaving))
            raise
        leave_on_stop(DONE_EXIT)
        return result


def _end_on(stop: KeyboardInterrupt) -> NoReturn:
    from gg.agents.interruption import leave_on_stop, said_of, signal_of

    code = SIGNAL_EXIT_BASE + signal_of(stop)
    leave_on_stop(code)
    click.echo(f"\ngg: {said_of(stop)}.", err=True)
    sys.exit(code)


def _exit_code(leaving: BaseException) -> int:
    """The code the command leaves with: its own (`sys.exit`, Click's refusals), else 1."""
    if isinstance(leaving, SystemExit):
        code = leaving.code
        return code if isinstance(code, int) else (DONE_EXIT if code is None else INCOMPLETE_EXIT)
    if isinstance(leaving, click.exceptions.Exit):
        return leaving.exit_code
    if isinstance(leaving, click.ClickException):
        return leaving.exit_code
    return INCOMPLETE_EXIT
