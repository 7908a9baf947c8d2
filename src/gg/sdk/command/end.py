"""How a shell command ended, as a program reads it: its shell exited with a code (`Exited`), or
its timeout stopped it (`TimedOut`), each with the output it wrote; a command the jail could not
start is `JailFailure`, raised, never returned."""

from __future__ import annotations

from dataclasses import dataclass

from gg.sdk.command.output import Output


class JailFailure(Exception):
    """The jail could not start a command; `reason` is what went wrong."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Exited:
    """The command's shell exited with `exit_code` (128 + n when signal n ended it)."""

    exit_code: int
    output: Output


@dataclass(frozen=True)
class TimedOut:
    """The timeout ended the command after `timeout_secs`; `output` is what it wrote until then."""

    timeout_secs: float
    output: Output


CommandEnd = Exited | TimedOut
