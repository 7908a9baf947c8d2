"""What a holder is told of its co-holders' writes: one entry per memory, its state at the end of
the batch, in the order the memories first appear in it.

- A memory deleted last is `deleted`; one the batch brought into being is `added`; any other is
  `updated`, however many writes touched it. Each entry carries the description it ended with.
- Under `scratchpad`, which has no read call, an entry that is not a deletion carries the body.
- The batch is the holder's news (`MemoryHolder.take_news`): never its own writes, each delivered
  once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from gg.config.memories.strategy import Strategy
from gg.state.memories.memory import Change, Revision


class NoticeChange(StrEnum):
    ADDED = "added"
    UPDATED = "updated"
    DELETED = "deleted"


@dataclass(frozen=True)
class NoticeEntry:
    name: str
    change: NoticeChange
    description: str
    body: str | None = None


def notice_entries(news: Sequence[Revision], strategy: Strategy) -> list[NoticeEntry]:
    first: dict[str, Revision] = {}
    last: dict[str, Revision] = {}
    for revision in news:
        first.setdefault(revision.name, revision)
        last[revision.name] = revision
    return [_entry(first[name], last[name], strategy) for name in first]


def _entry(first: Revision, last: Revision, strategy: Strategy) -> NoticeEntry:
    if last.change is Change.DELETED:
        return NoticeEntry(last.name, NoticeChange.DELETED, "")
    change = NoticeChange.ADDED if first.change is Change.WRITTEN else NoticeChange.UPDATED
    body = None if strategy.is_file_shaped else last.body
    return NoticeEntry(last.name, change, last.description, body)
