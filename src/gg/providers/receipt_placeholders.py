"""Receipt placeholders: `{{receipt R.C}}` inside a call's arguments stands for the receipt that
call C of reply R of the same script received (both from 1).

- R must be an earlier reply and C one of its calls; a placeholder not spelled `{{receipt R.C}}`
  is a defect. One naming a refused reply is not judged (that line's own defect is reported).
- Only strings are searched, at any depth; keys are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence, Set
from typing import Any, Protocol

from gg.providers.line_defect import LineDefect

PLACEHOLDER = re.compile(r"\{\{\s*receipt\s+(\d+)\.(\d+)\s*\}\}")
_PLACEHOLDER_START = re.compile(r"\{\{\s*receipt\b")


class Replied(Protocol):
    """An earlier reply of the script, as far as a placeholder reads it: its calls."""

    @property
    def calls(self) -> Sequence[object]: ...


def check_placeholders(arguments: Any, script: Sequence[Replied], refused: Set[int]) -> None:
    """Each placeholder names a call of an earlier reply of `script` (the replies before this one);
    one naming a reply in `refused` is not judged (that line's own defect is reported)."""
    number = len(script) + 1
    for text in strings_in(arguments):
        if len(_PLACEHOLDER_START.findall(text)) != len(PLACEHOLDER.findall(text)):
            raise LineDefect("a receipt placeholder must read `{{receipt R.C}}`", text)
        for match in PLACEHOLDER.finditer(text):
            r, c = int(match[1]), int(match[2])
            if not 1 <= r < number:
                raise LineDefect(_not_earlier(match[0], number), match[0])
            if r in refused:
                continue
            calls = len(script[r - 1].calls)
            if not 1 <= c <= calls:
                raise LineDefect(f"`{match[0]}`: reply {r} has {calls} call(s)", match[0])


def _not_earlier(placeholder: str, number: int) -> str:
    if number == 1:
        return f"`{placeholder}` must name an earlier reply, and reply 1 has none before it"
    return f"`{placeholder}` must name an earlier reply (1 to {number - 1})"


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a JSON value, keys excluded."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
