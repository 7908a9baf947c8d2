"""The jail shell commands and study checks run in: each command runs under bubblewrap in
namespaces of its own, with the agent's workspace as the only writable place, no network unless
shared, and bounded resources; every process a command starts is gone when the call returns.
What a command ended as, and its output, are the values of `gg.sdk.command`, named here too."""

from gg.sandbox.jail.jail import Jail, JailUnavailable, open_jail
from gg.sandbox.jail.policy import JailPolicy
from gg.sdk.command import MAX_OUTPUT_BYTES, CommandEnd, Exited, JailFailure, Output, TimedOut

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
