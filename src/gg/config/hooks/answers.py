"""What a hook's answer means, decided without running anything.

Rules:
- a command hook answers on stdout; the last non-empty line is read, as one JSON object:
  `{"action": "continue" | "block" | "message", "message"?: string}`, no other key;
- `message` is required with `message` (non-blank, at most `MAX_MESSAGE_CHARS`), optional with
  `block` (the refusal then names only the hook), refused with `continue`;
- a `block` on an event that cannot block is no answer: the hook has failed (`AnswerRefused`),
  as has output that is not such an object; a message on `session-end` is kept in the record
  and reaches no prompt;
- a Python hook answers `None` (continue) or the same object as a `dict`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from gg.config.hooks.events import HookAction, HookEvent, may_block

__all__ = ["CONTINUE", "MAX_MESSAGE_CHARS", "AnswerRefused", "HookAnswer", "answer_of", "read_answer"]

MAX_MESSAGE_CHARS = 16_000


class AnswerRefused(Exception):
    """A hook's output that is no answer; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class HookAnswer:
    action: HookAction
    message: str | None = None


CONTINUE = HookAnswer(HookAction.CONTINUE)


def read_answer(event: HookEvent, stdout: str) -> HookAnswer:
    """The answer a command printed (its last non-empty line). Raises `AnswerRefused`."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    if not lines:
        raise AnswerRefused("printed no answer; a hook prints one JSON object on its last line")
    try:
        value = json.loads(lines[-1])
    except ValueError:  # not JSON, or a whole number longer than Python reads
        raise AnswerRefused(f"printed {_cut(lines[-1])!r}, which is not a JSON object") from None
    return answer_of(event, value)


def answer_of(event: HookEvent, value: object) -> HookAnswer:
    """The answer `value` (a decoded object, or None for continue) gives on `event`. Raises
    `AnswerRefused`."""
    if value is None:
        return CONTINUE
    if not isinstance(value, Mapping):
        raise AnswerRefused("answered something other than an object with an `action`")
    answer = cast(Mapping[str, Any], value)
    extra = sorted(set(answer) - {"action", "message"})
    if extra:
        raise AnswerRefused(f"answered with keys a hook's answer does not have: {', '.join(extra)}")
    action = _action(answer.get("action"))
    message = _message(action, answer.get("message"))
    if action is HookAction.BLOCK and not may_block(event):
        raise AnswerRefused(f"answered block on {event}, which cannot be blocked")
    return HookAnswer(action, message)


def _action(value: object) -> HookAction:
    if not isinstance(value, str) or value not in set(HookAction):
        spelled = ", ".join(action.value for action in HookAction)
        raise AnswerRefused(f"answered action {json.dumps(value)}; an action is one of {spelled}")
    return HookAction(value)


def _message(action: HookAction, value: object) -> str | None:
    if value is None:
        if action is HookAction.MESSAGE:
            raise AnswerRefused("answered message without a `message`")
        return None
    if action is HookAction.CONTINUE:
        raise AnswerRefused("answered continue with a `message`; answer message to send one")
    if not isinstance(value, str) or not value.strip():
        raise AnswerRefused("answered a `message` that is not a non-blank string")
    if len(value) > MAX_MESSAGE_CHARS:
        raise AnswerRefused(f"answered a `message` of {len(value)} characters, over {MAX_MESSAGE_CHARS}")
    return value


def _cut(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"
