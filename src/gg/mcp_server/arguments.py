"""What a served tool answers when its own arguments are wrong: one plain sentence naming the
argument and what was wrong with it (missing, or not a string, saying what came), never the
validator's report.

Rules kept here:
- the first fault the validator found is the one named;
- what came is named by its JSON kind (a number, a boolean, an object, an array, null).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from gg.prompts import render

_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"),
    (int, "a number"),
    (float, "a number"),
    (dict, "an object"),
    (list, "an array"),
)


def refused_arguments(invalid: ValidationError) -> str:
    """The sentence a call with `invalid` arguments is answered with."""
    first = invalid.errors()[0]
    argument = ".".join(str(part) for part in first["loc"]) or "arguments"
    found = "" if first["type"] == "missing" else json_kind(first.get("input"))
    return render("mcp-serve-argument", argument=argument, found=found)


def json_kind(value: Any) -> str:
    if value is None:
        return "null"
    return next((kind for shape, kind in _KINDS if isinstance(value, shape)), "a string")
