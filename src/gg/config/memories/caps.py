"""The bounds of a memory store: six caps, each written by an enabled capability (`0` = off).

- `maxCount`, `maxLenPerMemory`, `maxTotalLen` and `maxLenDescription` bound every strategy;
  `maxLenIndex` bounds the one with an index (markdown) and `maxResults` the one with a search
  (keyword-search). Under any other strategy those two have nothing to bound: written `0` they
  resolve to not in force (`None`), as any cap written `0` does, and written otherwise they are
  refused at launch (`unapplied`); lengths count characters of the body (the description has its
  own cap);
- a write over a cap is refused `limit-exceeded`, never truncated; contents already over a cap
  (after the caps were re-pointed) are kept, and it is the next write that is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum

from gg.config.memories.strategy import Strategy


class CapName(StrEnum):
    """The six params, as the capability set spells them."""

    MAX_COUNT = "maxCount"
    MAX_LEN_PER_MEMORY = "maxLenPerMemory"
    MAX_TOTAL_LEN = "maxTotalLen"
    MAX_LEN_INDEX = "maxLenIndex"
    MAX_LEN_DESCRIPTION = "maxLenDescription"
    MAX_RESULTS = "maxResults"


_EVERY = frozenset(Strategy)
APPLIES: dict[CapName, frozenset[Strategy]] = {
    CapName.MAX_COUNT: _EVERY,
    CapName.MAX_LEN_PER_MEMORY: _EVERY,
    CapName.MAX_TOTAL_LEN: _EVERY,
    CapName.MAX_LEN_INDEX: frozenset({Strategy.MARKDOWN}),
    CapName.MAX_LEN_DESCRIPTION: _EVERY,
    CapName.MAX_RESULTS: frozenset({Strategy.KEYWORD_SEARCH}),
}


@dataclass(frozen=True)
class Caps:
    """The caps in force; `None` is no bound (written `0`, or not applied by the strategy)."""

    max_count: int | None = None
    max_len_per_memory: int | None = None
    max_total_len: int | None = None
    max_len_index: int | None = None
    max_len_description: int | None = None
    max_results: int | None = None

    @classmethod
    def resolve(cls, strategy: Strategy, written: Mapping[CapName, int]) -> Caps:
        """The caps `strategy` applies out of the six written values (a missing one is off)."""
        values = {_field(name): written.get(name, 0) or None for name in CapName if strategy in APPLIES[name]}
        return cls(**values)

    def to_wire(self) -> dict[str, int | None]:
        """Every cap by its param name, `None` (null) where none is in force."""
        return {CapName[f.name.upper()].value: getattr(self, f.name) for f in fields(self)}


def unapplied(strategy: Strategy, written: Mapping[CapName, int]) -> list[CapName]:
    """The caps written above `0` that `strategy` has nothing to apply to, in declaration order."""
    return [name for name in CapName if written.get(name, 0) > 0 and strategy not in APPLIES[name]]


def _field(name: CapName) -> str:
    return name.name.lower()
