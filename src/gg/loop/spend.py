"""What a run has spent on its models: tokens and money, summed over every reply of every agent.

Shared by every agent of a run (the `maxCost` ceiling reads the run-wide figure) and safe to add
to from several agent threads. A reply whose model has no price adds its tokens and counts as
unpriced; its cost is never guessed, so `cost_usd` is the priced replies' sum. Cache reads are
the sum of those the replies reported, `None` while none did.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from gg.providers.base import Usage
from gg.telemetry.events import UsageKey


@dataclass
class Spend:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int | None = None  # None while no reply reported its cache reads
    cache_write_tokens: int = 0
    cost_usd: float = 0.0
    replies: int = 0
    unpriced_replies: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, usage: Usage, cost_usd: float | None) -> None:
        with self._lock:
            self.input_tokens += usage.input_tokens
            self.output_tokens += usage.output_tokens
            if usage.cache_read_tokens is not None:
                self.cache_read_tokens = (self.cache_read_tokens or 0) + usage.cache_read_tokens
            self.cache_write_tokens += usage.cache_write_tokens
            self.replies += 1
            if cost_usd is None:
                self.unpriced_replies += 1
            else:
                self.cost_usd += cost_usd

    def to_wire(self) -> dict[str, Any]:
        with self._lock:
            return {
                UsageKey.INPUT.value: self.input_tokens,
                UsageKey.OUTPUT.value: self.output_tokens,
                UsageKey.CACHE_READ.value: self.cache_read_tokens,
                UsageKey.CACHE_WRITE.value: self.cache_write_tokens,
                "costUsd": round(self.cost_usd, 6) if self.replies > self.unpriced_replies else None,
                "replies": self.replies,
                "unpricedReplies": self.unpriced_replies,
            }
