"""gg's three built-in hooks, each a pure decider over an event's payload.

- `trace` answers every event with a message naming the event and its payload's fields, cut to
  `MAX_MESSAGE_CHARS` (on `session-end`, which no prompt follows, it continues);
- `refuse-empty-write` blocks a write whose contents are empty or only whitespace, on the
  reasoning that a model that empties a file has lost it rather than meant to; every other write
  passes;
- `guard-destructive-shell` blocks a command that would `git push`, `git reset --hard`, or remove
  recursively a path that is absolute or climbs out of the workspace (`rm -r /x`, `rm -rf ../x`,
  `rm -rf ~`); a guard rail that reads the command's text, not a sandbox.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from gg.config.hooks.answers import CONTINUE, MAX_MESSAGE_CHARS, HookAnswer
from gg.config.hooks.events import BuiltInHook, HookAction, HookEvent, may_insert

__all__ = ["built_in_answer"]

_PUSH = re.compile(r"\bgit\b[^;&|\n]*\spush\b")
_RESET_HARD = re.compile(r"\bgit\b[^;&|\n]*\sreset\b[^;&|\n]*\s--hard\b")
_RM = re.compile(r"\brm\s+((?:-\S+\s+)*)(.*?)(?:$|[;&|])", re.MULTILINE)
_OUTSIDE = re.compile(r"(?:^|\s)(?:/|~|\.\.(?:/|\s|$)|\$HOME)")


def built_in_answer(script: BuiltInHook, event: HookEvent, payload: Mapping[str, Any]) -> HookAnswer:
    match script:
        case BuiltInHook.TRACE:
            return _trace(event, payload)
        case BuiltInHook.REFUSE_EMPTY_WRITE:
            return _refuse_empty_write(event, payload)
        case BuiltInHook.GUARD_DESTRUCTIVE_SHELL:
            return _guard_destructive_shell(event, payload)


def _trace(event: HookEvent, payload: Mapping[str, Any]) -> HookAnswer:
    if not may_insert(event):
        return CONTINUE
    fields = {key: value for key, value in payload.items() if key != "event"}
    said = f"{event} {json.dumps(fields, ensure_ascii=False, sort_keys=True)}"
    if len(said) > MAX_MESSAGE_CHARS:
        said = said[: MAX_MESSAGE_CHARS - 1] + "…"
    return HookAnswer(HookAction.MESSAGE, said)


def _refuse_empty_write(event: HookEvent, payload: Mapping[str, Any]) -> HookAnswer:
    contents = payload.get("contents")
    if event is not HookEvent.PRE_WRITE or not isinstance(contents, str) or contents.strip():
        return CONTINUE
    return HookAnswer(HookAction.BLOCK, f"the write would leave {payload.get('path')} empty")


def _guard_destructive_shell(event: HookEvent, payload: Mapping[str, Any]) -> HookAnswer:
    command = payload.get("command")
    if event is not HookEvent.PRE_SHELL or not isinstance(command, str):
        return CONTINUE
    if _PUSH.search(command):
        return HookAnswer(HookAction.BLOCK, "the command would git push")
    if _RESET_HARD.search(command):
        return HookAnswer(HookAction.BLOCK, "the command would git reset --hard")
    for flags, operands in _RM.findall(command):
        if re.search(r"-\w*[rR]|--recursive", flags) and _OUTSIDE.search(operands):
            return HookAnswer(HookAction.BLOCK, "the command would remove a path outside the workspace")
    return CONTINUE
