"""The markdown strategy's index: one line per memory, in slug order.

The text the `maxLenIndex` cap measures is the text the pinned block shows, from this one function:
the lines joined by newlines, each rendered from the `memories-index-line` template.
"""

from __future__ import annotations

from collections.abc import Iterable

from gg import prompts
from gg.state.memories.memory import Memory


def index_line(name: str, description: str) -> str:
    return prompts.render("memories-index-line", name=name, description=description)


def index_text(memories: Iterable[Memory]) -> str:
    return "\n".join(index_line(memory.name, memory.description) for memory in memories)


def index_after_adding(current: str, name: str, description: str) -> int:
    """The index's length once a memory's line joins `current` (its newline included)."""
    line = len(index_line(name, description))
    return line if not current else len(current) + 1 + line
