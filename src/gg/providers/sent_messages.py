"""The messages one request sends, read from the window's own list without copying it.

Rules kept here:
- `SentMessages(items)` is the first `len(items)` messages of `items`, as they stand when it is
  made; it stays so only while `items` is never changed but by appending (the window's list: a
  cut gives the window a new list), so a request costs the same however long the window is;
- it is an immutable sequence: indexing, iterating and slicing (a slice is a tuple of only the
  messages it takes) see only its own messages, and it equals any sequence holding the same
  messages in the same order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from gg.providers.base import Message


class SentMessages(Sequence["Message"]):
    """The first `len(items)` messages of the append-only list `items`."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[Message]) -> None:
        self._items = items
        self._length = len(items)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Message: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Message, ...]: ...

    def __getitem__(self, index: int | slice) -> Message | tuple[Message, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if step == 1:
                return tuple(self._items[start:stop])
            return tuple(self._items[at] for at in range(start, stop, step))
        at = index + self._length if index < 0 else index
        if not 0 <= at < self._length:
            raise IndexError("message index out of range")
        return self._items[at]

    def __iter__(self) -> Iterator[Message]:
        return islice(self._items, self._length)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        theirs: Sequence[object] = other  # pyright: ignore[reportUnknownVariableType]
        return len(theirs) == self._length and all(a == b for a, b in zip(self, theirs, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"SentMessages({list(self)!r})"
