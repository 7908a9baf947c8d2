"""What a run saw an operation hand back when its result is declared unknown (an MCP tool with no
output schema): the last result, kept per operation (`Sightings`), and its shape as an arm spells
a type (`sketch`), which the operation's docs page shows when it is read.

Rules kept here:
- a sighting is the last successful result of the run, whichever agent's call gave it;
- a shape is spelled from the value: an object as its fields (`{ id: number; tags: string[] }`
  in JavaScript and TypeScript, `{"id": int, "tags": list[str]}` in Python), a list as its
  items' shapes (`unknown[]` / `list[Any]` when empty), a number as `number` (`int` or `float`);
- a sketch is cut past `MAX_DEPTH` levels (`...`) and `MAX_FIELDS` fields, and past
  `MAX_SKETCH_CHARS` characters, so a large result never floods a page.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from gg.sdk.registry import PYTHON_ARMS
from gg.sdk.shape_check import object_of

MAX_DEPTH = 4
MAX_FIELDS = 20
MAX_SKETCH_CHARS = 1200


class Sightings:
    """The last result the run saw of each operation whose result is unknown, by wire key."""

    def __init__(self) -> None:
        self._last: dict[str, Any] = {}
        self._lock = threading.Lock()

    def saw(self, operation: str, value: Any) -> None:
        with self._lock:
            self._last[operation] = value

    def last(self, operation: str) -> tuple[Any] | None:
        """`(value,)` when the run saw a result of `operation`, else None."""
        with self._lock:
            return (self._last[operation],) if operation in self._last else None


def sketch(value: Any, language: str) -> str:
    """The shape of `value` (JSON data) as `language`'s arm spells a type (see the module rules)."""
    python = language in PYTHON_ARMS
    text = _shape(value, python, MAX_DEPTH)
    return text if len(text) <= MAX_SKETCH_CHARS else text[:MAX_SKETCH_CHARS] + "…"


def _shape(value: Any, python: bool, depth: int) -> str:
    if value is None:
        return "None" if python else "null"
    if isinstance(value, bool):
        return "bool" if python else "boolean"
    if isinstance(value, int):
        return "int" if python else "number"
    if isinstance(value, float):
        return "float" if python else "number"
    if isinstance(value, str):
        return "str" if python else "string"
    if depth <= 0:
        return "..."
    if isinstance(value, list):
        return _list(value, python, depth)  # pyright: ignore[reportUnknownArgumentType]
    entry = object_of(value)
    return (
        "Any" if python and entry is None else ("unknown" if entry is None else _object(entry, python, depth))
    )


def _list(items: list[Any], python: bool, depth: int) -> str:
    shapes = list(dict.fromkeys(_shape(item, python, depth - 1) for item in items))
    if not shapes:
        return "list[Any]" if python else "unknown[]"
    joined = " | ".join(shapes)
    if python:
        return f"list[{joined}]"
    return f"({joined})[]" if len(shapes) > 1 else f"{joined}[]"


def _object(entry: dict[str, Any], python: bool, depth: int) -> str:
    names = list(entry)[:MAX_FIELDS]
    more = len(entry) > MAX_FIELDS
    if python:
        parts = [f"{json.dumps(name)}: {_shape(entry[name], True, depth - 1)}" for name in names]
        return "{" + ", ".join([*parts, *(["..."] if more else [])]) + "}"
    parts = [f"{_key(name)}: {_shape(entry[name], False, depth - 1)}" for name in names]
    return "{ " + "; ".join([*parts, *(["..."] if more else [])]) + " }" if parts else "{}"


def _key(name: str) -> str:
    return name if name.isidentifier() else json.dumps(name)
