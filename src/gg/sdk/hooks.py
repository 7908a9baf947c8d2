"""What an operation asks of the run's hooks (`gg.config.hooks`): the port a program's scope holds,
and how a block reaches the program.

Rules:
- an operation that has a hook event fires it through its scope's port (`HookPort`); a scope
  without one (a run with no hooks) fires nothing;
- a block reaches the program as `ApiError(operation, refused)` naming the hook and its message;
  the operation does nothing;
- a hook that could not judge raises `gg.errors.HookFailed` through the program: the run ends
  `hook_error` and the model reads nothing of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from gg.config.hooks import HookEvent
from gg.errors import ErrorCode, OperationError
from gg.prompts import render

__all__ = ["Blocked", "HookPort", "fire"]


@dataclass(frozen=True)
class Blocked:
    """The hook that blocked, and what it said (None: nothing)."""

    hook: str
    message: str | None


class HookPort(Protocol):
    def fire(self, event: HookEvent, fields: Mapping[str, object]) -> Blocked | None:
        """Run the event's hooks in order; the first block stops them and is returned. Raises
        `HookFailed`."""
        ...


def fire(port: HookPort | None, operation: str, event: HookEvent, fields: Mapping[str, object]) -> None:
    """Fire `event` through the program's port (its scope's `hooks`); a block refuses `operation`."""
    if port is None:
        return
    blocked = port.fire(event, fields)
    if blocked is not None:
        said = render("hook-refused", hook=blocked.hook, event=event.value, message=blocked.message or "")
        raise OperationError(operation, ErrorCode.REFUSED, said)
