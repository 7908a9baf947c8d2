"""Spelling on the wire: Python names are snake_case, wire fields are camelCase."""

from __future__ import annotations


def camel(snake: str) -> str:
    """`max_line_chars` → `maxLineChars`."""
    head, *rest = snake.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)
