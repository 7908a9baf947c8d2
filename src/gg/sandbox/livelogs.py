"""What a running program logs, as its guest streams it to gg while it runs.

Rules kept here:
- a guest sends the lines a program logged in batches, as they come (each batch at most
  `MAX_LOG_LINES` lines, the lines it could not send counted as `dropped`, which come before the
  batch's lines);
- the pool hands each batch to the host's `logged`, when the host takes live lines
  (`LiveLogs`), and keeps a tail of its own (`StreamedTail`): a program stopped at a ceiling is
  reported with that tail, since its guest cannot send one; a program that ended reports the
  guest's own tail.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from gg.sandbox.execution import MAX_LOG_LINES


@runtime_checkable
class LiveLogs(Protocol):
    """A host that takes a program's lines as they are logged (the membrane)."""

    def logged(self, lines: Sequence[str], dropped: int) -> None: ...


class StreamedTail:
    """The last `MAX_LOG_LINES` lines a guest streamed, the count of those dropped, and the host
    they are handed to as they come."""

    def __init__(self, host: object) -> None:
        self._lines: deque[str] = deque(maxlen=MAX_LOG_LINES)
        self._dropped = 0
        self._live = host if isinstance(host, LiveLogs) else None

    def take(self, message: Mapping[str, Any]) -> None:
        """One batch as the guest sent it: `lines`, and `dropped` before them."""
        lines = [str(line) for line in message.get("lines") or ()]
        dropped = int(message.get("dropped") or 0)
        overflow = max(0, len(self._lines) + len(lines) - MAX_LOG_LINES)
        self._dropped += dropped + overflow
        self._lines.extend(lines)
        if self._live is not None:
            self._live.logged(lines, dropped)

    def tail(self) -> tuple[tuple[str, ...], int]:
        """The lines kept, and how many were dropped."""
        return tuple(self._lines), self._dropped
