"""Text on the wire: how names are spelled (Python snake_case, wire camelCase), which text is
well-formed enough to cross (no lone surrogates; nothing that could forge a heading), and control
characters shown as pictures or escapes, so none reaches a terminal raw."""

from __future__ import annotations

import json
import re
from typing import Any

_JS_RESERVED_WORDS = (
    "break case catch class const continue debugger default delete do else enum export extends "
    "false finally for function if import in instanceof new null return super switch this throw "
    "true try typeof var void while with yield let static implements interface package private "
    "protected public await arguments eval"
)
JS_RESERVED = frozenset(_JS_RESERVED_WORDS.split())
"""The words JavaScript keeps for itself: no SDK function, parameter or module may be one."""


def camel(snake: str) -> str:
    """`max_line_chars` → `maxLineChars`."""
    head, *rest = snake.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def snake(camel_name: str) -> str:
    """`maxLineChars` → `max_line_chars`: each upper-case letter starts a new lower-case word."""
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in camel_name).lstrip("_")


# The characters with no picture: lone surrogates, the line and paragraph separators, and the bidi
# marks, embeddings, overrides and isolates.
_UNPICTURED = "\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
_NO_PICTURE = re.compile(f"[{_UNPICTURED}]")
# Those, and the C0 and C1 controls (NUL, newline, ESC included) and DEL.
_HEADING_UNSAFE_CLASS = f"\x00-\x1f\x7f-\x9f{_UNPICTURED}"
_HEADING_UNSAFE = re.compile(f"[{_HEADING_UNSAFE_CLASS}]")


def well_formed(text: str) -> str:
    """`text` as well-formed Unicode: each lone surrogate (from JS strings) becomes U+FFFD; a
    well-formed string is returned as is. Pairs of surrogates are joined into their code point."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def read_json(text: str | bytes, *, lenient: bool = False) -> Any:
    """Parse JSON that came from outside gg (a model, a provider, a journal).

    Raises `ValueError` for text that is not JSON, and for JSON nested too deep to parse (which the
    standard parser reports as a `RecursionError`): neither may take gg down. `lenient` takes a
    raw control character inside a string (a newline, a tab) as itself, as the servers' own
    grammars let a model write one in a tool call's arguments.
    """
    try:
        return json.loads(text, strict=not lenient)
    except RecursionError:
        raise ValueError("nested too deeply to read") from None


def lenient_value(text: str) -> Any:
    """`text` read leniently as JSON (`read_json(text, lenient=True)`); `None` when it is not
    JSON, so JSON's own `null` and text that is not JSON read alike: keep the text to tell them
    apart."""
    try:
        return read_json(text, lenient=True)
    except ValueError:
        return None


def well_formed_value(value: Any) -> Any:
    """`value` (a JSON-like value) with every string in it well-formed; the same object when
    nothing in it needed mending."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, list | tuple):
        items = [well_formed_value(item) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return type(value)(items)
    if isinstance(value, dict):
        mended = {well_formed_value(k): well_formed_value(v) for k, v in value.items()}
        if all(k in value and value[k] is v for k, v in mended.items()):
            return value
        return mended
    return value


# Every control character but newline and tab, as its picture (U+2400 + code, U+2421 for DEL) or
# U+FFFD (C1): one character for one, so no escape sequence reaches a terminal or a reader.
_PICTURES = {
    **{code: 0x2400 + code for code in range(0x20) if chr(code) not in "\n\t"},
    0x7F: 0x2421,
    **{code: 0xFFFD for code in range(0x80, 0xA0)},
}


def pictured(text: str) -> str:
    """`text` with every control character but newline and tab shown as its picture."""
    return text.translate(_PICTURES)


def printable(text: str) -> str:
    """`text` as a terminal may show it: every control character but newline and tab as its
    picture (`pictured`), and every character with no picture (a bidi control such as U+202E, a
    line or paragraph separator, a lone surrogate) as U+FFFD, so nothing steers or reorders what
    the operator reads."""
    return _NO_PICTURE.sub("\ufffd", pictured(text))


_LINE_PICTURES = {ord("\n"): 0x2400 + ord("\n"), ord("\t"): 0x2400 + ord("\t")}


def printable_line(text: str) -> str:
    """`text` as a terminal may show it within one line (a table cell, a heading): `printable`,
    with newline and tab pictured too, so no text splits a row."""
    return printable(text).translate(_LINE_PICTURES)


def terminal_safe(value: Any) -> Any:
    """`value` (a wire record, or any part of one) with every string made printable
    (`printable`: control characters as pictures, bidi controls as U+FFFD), so no escape
    sequence from a program or a model reaches the operator's terminal and no text can redraw or
    reorder gg's own lines; other values as they are. Every text a terminal view prints from a
    run passes here."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list | tuple):
        return [terminal_safe(item) for item in value]
    if isinstance(value, dict):
        return {key: terminal_safe(item) for key, item in value.items()}
    return value


def lines(text: str) -> list[str]:
    """The lines of `text` as a listing shows them: split at newline only (a final newline ends
    the last line), so every other character that breaks a line elsewhere (CR, VT, FF, NEL,
    U+2028) stays inside its line, where `printable` shows it."""
    split = text.split("\n")
    return split[:-1] if split[-1] == "" else split


def escaped(text: str) -> str:
    """`text` with each character a heading may not hold (`first_heading_unsafe`) written as its
    escape (`\\u202e`), for a message that quotes what it refuses."""
    return _HEADING_UNSAFE.sub(lambda found: f"\\u{ord(found[0]):04x}", text)


def heading_safe_pattern() -> str:
    """The JSON Schema pattern (ECMA-262, and Python's `re` alike) of a text holding no character a
    heading may not hold (`first_heading_unsafe`), each written as its `\\uXXXX` escape."""
    escapes = "".join(c if c == "-" else f"\\u{ord(c):04x}" for c in _HEADING_UNSAFE_CLASS)
    return f"^[^{escapes}]*$"


def first_heading_unsafe(text: str) -> int | None:
    """Index of the first character a heading may not hold, or None. Unsafe: C0/C1 controls
    (NUL, newline, tab, ESC), DEL, lone surrogates, U+2028/U+2029 and the bidi controls."""
    found = _HEADING_UNSAFE.search(text)
    return None if found is None else found.start()
