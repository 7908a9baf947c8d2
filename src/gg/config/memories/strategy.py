"""How a store is organized (the capability's `implementation`), declared once.

A strategy decides two things and nothing else decides them:
- what reaches the holder's window: every body pinned (`scratchpad`), a one-line index per memory
  (`markdown`), or nothing (`keyword-search`);
- which calls exist: `write_memory`, `update_memory`, `delete_memory` (`scratchpad`);
  `create_memory`, `read_memory`, `edit_memory`, `delete_memory` (`markdown`); the same plus
  `search_memories` (`keyword-search`).
A read-only holder is offered the strategy's read calls alone (`read_memory`, plus
`search_memories` under `keyword-search`; a scratchpad has none: its memories are its pinned block).
"""

from __future__ import annotations

from enum import StrEnum

from gg.config.kinds import ModuleKind


class Strategy(StrEnum):
    SCRATCHPAD = "scratchpad"
    MARKDOWN = "markdown"
    KEYWORD_SEARCH = "keyword-search"

    @property
    def pins(self) -> Pinned:
        return _PINS[self]

    @property
    def calls(self) -> tuple[Call, ...]:
        """Every call this strategy offers, in declaration order."""
        return _CALLS[self]

    @property
    def creates(self) -> Call:
        """The call that adds a memory."""
        return Call.WRITE if self is Strategy.SCRATCHPAD else Call.CREATE

    @property
    def revises(self) -> Call:
        """The call that changes one."""
        return Call.UPDATE if self is Strategy.SCRATCHPAD else Call.EDIT

    @property
    def is_file_shaped(self) -> bool:
        """Memories read on demand (`read_memory`) rather than held in the window."""
        return self is not Strategy.SCRATCHPAD

    @property
    def has_index(self) -> bool:
        return self is Strategy.MARKDOWN

    @property
    def has_search(self) -> bool:
        return self is Strategy.KEYWORD_SEARCH


class Pinned(StrEnum):
    """What a strategy keeps in its holder's window."""

    BODIES = "bodies"
    INDEX = "index"
    NOTHING = "nothing"


class Call(StrEnum):
    """The memory calls, by their operation keys (`memories.<key>`)."""

    WRITE = "write_memory"
    UPDATE = "update_memory"
    CREATE = "create_memory"
    READ = "read_memory"
    EDIT = "edit_memory"
    DELETE = "delete_memory"
    SEARCH = "search_memories"

    @property
    def reads(self) -> bool:
        """A call that changes nothing, which a read-only holder may make."""
        return self in (Call.READ, Call.SEARCH)

    @property
    def key(self) -> str:
        """The call's operation key (`memories.read_memory`)."""
        return f"{ModuleKind.MEMORIES.value}.{self.value}"


_PINS = {
    Strategy.SCRATCHPAD: Pinned.BODIES,
    Strategy.MARKDOWN: Pinned.INDEX,
    Strategy.KEYWORD_SEARCH: Pinned.NOTHING,
}
_FILE_CALLS = (Call.CREATE, Call.READ, Call.EDIT, Call.DELETE)
_CALLS: dict[Strategy, tuple[Call, ...]] = {
    Strategy.SCRATCHPAD: (Call.WRITE, Call.UPDATE, Call.DELETE),
    Strategy.MARKDOWN: _FILE_CALLS,
    Strategy.KEYWORD_SEARCH: (*_FILE_CALLS, Call.SEARCH),
}


def offered_calls(strategy: Strategy, writable: bool) -> tuple[Call, ...]:
    """The calls a holder of a `strategy` store is offered: every one, or the reads alone."""
    return tuple(call for call in strategy.calls if writable or call.reads)
