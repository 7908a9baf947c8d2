"""Which lines of a replay journal are host lines: an object holding `hostFamily` or `hostAnswer`
alone (a host function's declaration, or one of its answers; `gg.sdk.host.recording` reads them).
A journal's replies are read around them (`gg.providers.journal`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from gg.wire import read_json

HOST_KEYS = frozenset({"hostFamily", "hostAnswer"})
_HOST_LINE_START = re.compile(r'\{\s*"host(Family|Answer)"')


def host_lines(text: str) -> Iterator[tuple[int, str, Any]]:
    """(line number, key, value) of every host line, in file order."""
    for number, raw in enumerate(text.splitlines(), 1):
        found = host_line(raw.strip())
        if found is not None:
            yield number, *found


def host_line(stripped: str) -> tuple[str, Any] | None:
    """(`hostFamily` or `hostAnswer`, its value) when the line is a host line, else None."""
    if not _HOST_LINE_START.match(stripped):
        return None
    try:
        value = read_json(stripped)
    except ValueError:
        return None
    if isinstance(value, dict) and len(value) == 1:  # pyright: ignore[reportUnknownArgumentType]
        ((key, inner),) = value.items()  # pyright: ignore[reportUnknownVariableType]
        if key in HOST_KEYS:
            return str(key), inner  # pyright: ignore[reportUnknownArgumentType]
    return None
