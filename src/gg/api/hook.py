"""`gg.hook(event)(fn)`: a hook written in Python, for `gg.run(config, hooks=[...])`.

- `event` is one of the ten hook events (`session-start`, `session-end`, `agent-start`,
  `agent-stop`, `pre-write`, `post-write`, `pre-shell`, `post-shell`, `pre-compact`,
  `post-compact`); any other name raises `gg.ConfigError`;
- `fn(payload)` is handed the event's payload (a dict: `event`, `agentId`, `agent`, and the
  event's own fields) and returns None to continue, or the answer a command hook prints
  (`{"action": "continue" | "block" | "message", "message"?: str}`), judged the same way;
- it fires for every agent of the run (a session event once for the run), after the hooks the
  capability set and the profiles declare for the same event, under `name` (the function's name
  unless given);
- a function that raises, calls `sys.exit`, or answers what its event cannot take (a block on
  `post-write`), has judged nothing: the run ends `hook_error`, as for a command hook; a
  `KeyboardInterrupt` (Ctrl-C) interrupts the run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gg.config.hooks import HookEvent
from gg.errors import ConfigDefect, ConfigError
from gg.loop.hooks import PythonHook

__all__ = ["hook"]

HookFunction = Callable[[dict[str, Any]], object]


def hook(event: str, *, name: str | None = None) -> Callable[[HookFunction], PythonHook]:
    """A decorator making `fn` a hook on `event` (this module's documentation says how it runs)."""
    if event not in set(HookEvent):
        spelled = ", ".join(known.value for known in HookEvent)
        raise ConfigError("gg.hook", [ConfigDefect("event", event, f"must be one of {spelled}")])

    def made(fn: HookFunction) -> PythonHook:
        return PythonHook(HookEvent(event), fn, name or getattr(fn, "__name__", "hook"))

    return made
