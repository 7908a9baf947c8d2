"""The jail shell commands and study checks run in: each command runs under bubblewrap in
namespaces of its own, with the agent's workspace as the only writable place, no network unless
shared, and bounded resources; every process a command starts is gone when the call returns."""

from gg.sandbox.jail.command import CommandEnd, Exited, JailFailure, TimedOut
from gg.sandbox.jail.jail import Jail, JailUnavailable, open_jail
from gg.sandbox.jail.output import MAX_OUTPUT_BYTES, Output
from gg.sandbox.jail.policy import JailPolicy

__all__ = [
    "MAX_OUTPUT_BYTES",
    "CommandEnd",
    "Exited",
    "Jail",
    "JailFailure",
    "JailPolicy",
    "JailUnavailable",
    "Output",
    "TimedOut",
    "open_jail",
]
