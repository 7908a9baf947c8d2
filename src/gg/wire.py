"""Spelling on the wire: Python names are snake_case, wire fields are camelCase."""

from __future__ import annotations


def camel(snake: str) -> str:
    """`max_line_chars` → `maxLineChars`."""
    head, *rest = snake.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def snake(camel_name: str) -> str:
    """`maxLineChars` → `max_line_chars`: each upper-case letter starts a new lower-case word."""
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in camel_name).lstrip("_")
