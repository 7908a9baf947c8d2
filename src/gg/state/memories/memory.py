"""One memory and one entry of a store's revision log.

- A memory is `{name, description, body, code?, onUse?}`; `name` is its slug. Its length is its
  body's, in characters; its lines count the body's lines (a body is stored trimmed, never empty).
- A revision records one successful mutation: the memory's slug, its revision number (per slug,
  from 1, counting on across a delete and a re-creation), what it did (`written`, `updated`,
  `deleted`), the text as of that revision (empty for a deletion) and the agent that made it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


def count_lines(text: str) -> int:
    """The lines of `text`: 0 for the empty text, else its newlines plus an unterminated last line."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


@dataclass(frozen=True)
class Memory:
    name: str
    description: str
    body: str
    code: str | None = None
    on_use: str | None = None

    @property
    def length(self) -> int:
        return len(self.body)

    @property
    def lines(self) -> int:
        return count_lines(self.body)


class Change(StrEnum):
    """What a revision did (`memory_revision.change`)."""

    WRITTEN = "written"
    UPDATED = "updated"
    DELETED = "deleted"


@dataclass(frozen=True)
class Revision:
    name: str
    revision: int
    change: Change
    description: str
    body: str
    author: str

    @property
    def length(self) -> int:
        return len(self.body)

    @property
    def lines(self) -> int:
        return count_lines(self.body)
