"""A model request's fingerprint, how strictly a playback compares what an agent was asked with
what it was asked in the record.

Rules:
- `exact`: the request byte for byte, every message the request added (what `model_request`
  records), only the envelope's time and run id left out.
- `shape`: the same messages in the same order, each read as its role and its heading (a user
  message's first line: a view's or a feedback block's heading, a document's name), a receipt as
  a receipt, an assistant message as the calls it made; digits and program ids are masked, so ids
  and timings never count, and the system prompt's wording may have moved. Messages other agents
  put in the window on their own clock (a co-holder's memory notice, a message sent by another
  agent) are taken out of their request and compared as the agent's arrivals over its whole run:
  each must arrive, not at the same turn.
- `none`: requests are not compared.
- `masked` is the one masking of every playback comparison under `shape`: digits read `#` in every
  text, a `programId` reads `<id>`, and a program's counts of calls (`toolCalls`, `apiCalls`) are
  left out: a program that polls for another agent's write knocks as often as that agent's thread
  makes it. `untimed` is what every mode leaves out of what it compares:
  the envelope's time and run id, and every duration (a key ending in `Ms`, at any depth), which
  is the wall clock's, never the run's behaviour.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache
from typing import Any

from gg import prompts

ENVELOPE_TIME = frozenset({"timestamp", "runId"})
CALL_COUNTS = frozenset({"toolCalls", "apiCalls"})
_DIGITS = re.compile(r"\d+")
_SENTINEL = "\x00"


class Fingerprint(StrEnum):
    EXACT = "exact"
    SHAPE = "shape"
    NONE = "none"


def masked(value: Any) -> Any:
    """`value` with digits and program ids masked, for a `shape` comparison."""
    if isinstance(value, str):
        return _DIGITS.sub("#", value)
    if isinstance(value, dict):
        return {
            k: "<id>" if k == "programId" else masked(v)
            for k, v in value.items()  # pyright: ignore[reportUnknownVariableType]
            if not (k in CALL_COUNTS and isinstance(v, int))
        }
    if isinstance(value, list):
        return [masked(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def untimed(value: Any) -> Any:
    """`value` without the envelope's time and run id, and without any duration."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in ENVELOPE_TIME and not k.endswith("Ms")}  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    if isinstance(value, list):
        return [untimed(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def request_print(request: dict[str, Any], mode: Fingerprint) -> Any:
    """What of a `model_request` record `mode` compares (None under `none`)."""
    if mode is Fingerprint.NONE:
        return None
    if mode is Fingerprint.EXACT:
        return untimed(request)
    return [heading(m) for m in _messages(request) if not is_arrival(m)]


def arrivals(request: dict[str, Any]) -> list[str]:
    """The masked text of each message of `request` another agent put there on its own clock."""
    return [masked(str(m.get("content", ""))) for m in _messages(request) if is_arrival(m)]


def heading(message: dict[str, Any]) -> tuple[str, ...]:
    """A message as `shape` reads it: its role and its heading."""
    role = str(message.get("role", ""))
    if role == "assistant":
        calls = message.get("toolCalls") or []
        return (role, *(str(c.get("name", "")) for c in calls if isinstance(c, dict)))  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    if role in ("system", "tool"):
        return (role,)
    lines = str(message.get("content", "")).splitlines()
    return (role, masked(lines[0]) if lines else "")


def is_arrival(message: dict[str, Any]) -> bool:
    """Whether a user message is one another agent put in the window on its own clock."""
    content = message.get("content")
    return (
        message.get("role") == "user" and isinstance(content, str) and content.startswith(arrival_headings())
    )


@cache
def arrival_headings() -> tuple[str, ...]:
    """How the messages other agents place begin, read off their own wordings."""
    notice = prompts.render("memories-notice", entries=[], read_call="").splitlines()[0]
    message = prompts.render("message", sender=_SENTINEL, message="").split(_SENTINEL)[0]
    return (notice, message)


def _messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    messages = request.get("messages")
    if not isinstance(messages, list):
        return []
    return [m for m in messages if isinstance(m, dict)]  # pyright: ignore[reportUnknownVariableType]
