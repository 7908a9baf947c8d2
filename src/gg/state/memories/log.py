"""A store's revision log: append-only, each entry tagged with its author.

Positions are absolute (the number of entries ever appended before one), so a holder's watermark
stays meaningful after the entries every holder has read past are forgotten (`prune`). The head is
the position the next entry takes.
"""

from __future__ import annotations

from collections.abc import Iterable

from gg.state.memories.memory import Revision


class RevisionLog:
    def __init__(self, base: int = 0, entries: Iterable[Revision] = ()) -> None:
        self._base = base  # the absolute position of `_entries[0]`
        self._entries: list[Revision] = list(entries)

    @property
    def head(self) -> int:
        return self._base + len(self._entries)

    @property
    def retained(self) -> int:
        """How many entries are still held (some holder may still be owed them)."""
        return len(self._entries)

    def append(self, revision: Revision) -> None:
        self._entries.append(revision)

    def since(self, position: int) -> tuple[Revision, ...]:
        """The entries from absolute `position` to the head, oldest first."""
        return tuple(self._entries[max(position - self._base, 0) :])

    def prune(self, before: int) -> None:
        """Forget the entries below absolute position `before` (no holder is owed them)."""
        drop = min(max(before - self._base, 0), len(self._entries))
        del self._entries[:drop]
        self._base += drop

    def at_head(self) -> RevisionLog:
        """An empty log continuing from this one's head: a copy owes nobody the original's past."""
        return RevisionLog(self.head)
