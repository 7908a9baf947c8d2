"""A defect of one journal line, and the JSON shape checks every part of a line is read with.

- A `LineDefect` says what is wrong (`reason`) and shows what was found (`found`); the journal
  reports it under the line's number and judges that line no further.
- An object may hold only its known keys (an unknown one is named, with the known ones); a list
  must be a list and a string a string.
"""

from __future__ import annotations

from typing import Any


class LineDefect(Exception):
    def __init__(self, reason: str, found: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.found = found


def json_object(value: Any, what: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise LineDefect(f"{what} must be a JSON object", value)
    unknown = sorted(set(value) - keys)
    if unknown:
        raise LineDefect(
            f"{what} has unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(keys))})", value
        )
    return value


def json_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise LineDefect(f"{what} must be a list", value)
    return value


def json_string(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise LineDefect(f"{what} must be a string", value)
    return value
