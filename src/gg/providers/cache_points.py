"""Where a request marks its prompt-cache breakpoints (Anthropic's `cache_control`). Pure.

A request carries at most `MAX_POINTS` (4) points, over its messages as sent (index 0 is the
first message; `SYSTEM` is the system prompt block, which the tool definitions precede):

- the anchor: the last message before the first assistant message, covering the tool, the
  system prompt and the opening context; `SYSTEM` when no message precedes it. It stays put for
  the life of the agent.
- up to two rolling points: the two highest indices `i` with `(i + 1) % GRID == 0` strictly
  between the anchor and the tail. Being on a fixed grid, they name the same prefix on every
  request until the thread grows past the next grid line.
- the tail: the last message, or the one before it when the request's last message is
  re-rendered every turn (`volatile_tail`): a prefix ending there would never recur.

Points that coincide are one point. The anchor and the rolling points take the profile's cache
lifetime (`durable`); the tail, rewritten every turn and read once, takes the provider default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SYSTEM = -1
GRID = 8  # messages between two rolling points
MAX_POINTS = 4
ROLLING_POINTS = 2


@dataclass(frozen=True)
class CachePoint:
    index: int  # a message index, or SYSTEM
    durable: bool  # True: the profile's lifetime; False: the provider's default


def cache_points(roles: Sequence[str], *, volatile_tail: bool = False) -> tuple[CachePoint, ...]:
    """The points for a request whose messages, as sent, have these `roles`; in index order."""
    tail = len(roles) - 1 - (1 if volatile_tail and roles else 0)
    first_assistant = next((i for i, role in enumerate(roles) if role == "assistant"), len(roles))
    anchor = max(SYSTEM, min(first_assistant - 1, tail))
    rolling = [i for i in range(tail - 1, anchor, -1) if (i + 1) % GRID == 0][:ROLLING_POINTS]
    durable = {anchor, *rolling}
    points = [CachePoint(i, durable=True) for i in sorted(durable)]
    if tail not in durable:
        points.append(CachePoint(tail, durable=False))
    assert len(points) <= MAX_POINTS
    return tuple(points)
