"""How a stop from outside ends the `gg` command wherever it lands: Ctrl-C (SIGINT) exits 130 and
SIGTERM 143 (128 + the signal's number), with at most one line, never Click's `Aborted!`.

Rules kept here:
- while the `gg` command starts, either signal ends it at once, silently (`gg.exits.quiet_start`,
  called as the `gg` package imports); nothing exists yet that could be kept;
- once a command runs, Ctrl-C is a `KeyboardInterrupt` again and SIGTERM one too (`Terminated`,
  `gg.agents.interruption.take_stops`: the first stop only; one more is held while it is
  handled), so a command that keeps a record (`gg run`, `gg study run`, `gg mcp serve`) meets the
  stop itself and says what it kept; one that reaches the command line (`GgGroup`) ends it with
  one line naming the stop, and its code.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from gg.exits import SIGNAL_EXIT_BASE, hand_signals_over


class GgGroup(click.Group):
    """The `gg` group: a stop that reaches it from any command ends the command with one line."""

    def invoke(self, ctx: click.Context) -> Any:
        from gg.agents.interruption import take_stops

        hand_signals_over(take_stops)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as stop:
            _end_on(stop)


def _end_on(stop: KeyboardInterrupt) -> NoReturn:
    from gg.agents.interruption import said_of, signal_of

    click.echo(f"\ngg: {said_of(stop)}.", err=True)
    sys.exit(SIGNAL_EXIT_BASE + signal_of(stop))
