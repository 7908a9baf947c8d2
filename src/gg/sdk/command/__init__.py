"""A shell command as a program reads it: how it ended (`end`: exited, timed out, never started)
and the tail of what it wrote, made readable (`output`). The jail that runs it (`gg.sandbox.jail`)
hands these values back; the shell family (`gg.sdk.shell`) reads them."""

from gg.sdk.command.end import CommandEnd, Exited, JailFailure, TimedOut
from gg.sdk.command.output import MAX_OUTPUT_BYTES, Output, OutputTail

__all__ = ["MAX_OUTPUT_BYTES", "CommandEnd", "Exited", "JailFailure", "Output", "OutputTail", "TimedOut"]
