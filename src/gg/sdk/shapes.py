"""Shapes: the types a host function declares, as values (`gg.sdk.host` reads them from Python
annotations). Pure.

gg's own operations write their types in the one grammar of `gg.sdk.types`; a host function's
types are richer (whole numbers apart from fractions, maps, nested unions, literals of any JSON
scalar), so they are held as a tree of shapes, and each shape spells itself for every arm:
- `Scalar`: a string, a whole number, a number, a boolean, null, or any JSON value;
- `Literals`: one of fixed JSON scalars (`Literal["north", "south"]`);
- `ListOf`, `MapOf` (string keys), `OneOf` (a union);
- `RecordShape`: an object with named fields (a `TypedDict`, a dataclass or a pydantic model, or
  an MCP tool's JSON Schema object), referred to by its name; its fields are spelled as their
  author wrote them on every arm.

Rules kept here:
- `ts` is TypeScript's spelling (`Record<string, number>`, `(string | null)[]`), `py` Python's
  (`dict[str, float]`, `list[str | None]`), `words` what a refusal says it wanted (`a whole
  number`); a union spells each alternative once;
- `records_in` lists every record a shape reaches, each after the records its fields name, so
  they can be declared in that order.

Judging a value against a shape is `gg.sdk.shape_check`; carrying one in a recording,
`gg.sdk.shape_json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ScalarKind(StrEnum):
    STRING = "string"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    NULL = "null"
    ANY = "any"


@dataclass(frozen=True)
class Scalar:
    kind: ScalarKind


@dataclass(frozen=True)
class Literals:
    values: tuple[str | int | bool, ...]


@dataclass(frozen=True)
class ListOf:
    item: Shape


@dataclass(frozen=True)
class MapOf:
    value: Shape


@dataclass(frozen=True)
class OneOf:
    options: tuple[Shape, ...]


@dataclass(frozen=True)
class RecordField:
    name: str  # as its author wrote it, on every arm and the wire
    shape: Shape
    required: bool = True
    doc: str = ""


@dataclass(frozen=True)
class RecordShape:
    """A named object. `origin` is the Python class it was read from (None when read back from a
    recording); it is not part of the shape. An `open` record (a JSON Schema object that does not
    forbid other properties) takes fields it does not declare, as they are."""

    name: str
    fields: tuple[RecordField, ...]
    doc: str = ""
    origin: Any = field(default=None, compare=False, repr=False)
    open: bool = False


Shape = Scalar | Literals | ListOf | MapOf | OneOf | RecordShape

_TS = {
    "string": "string",
    "integer": "number",
    "number": "number",
    "boolean": "boolean",
    "null": "null",
    "any": "unknown",
}
_PY = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None", "any": "Any"}
_WORDS = {
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "any": "plain data",
}


def ts(shape: Shape) -> str:
    """TypeScript's spelling of `shape`."""
    match shape:
        case Scalar(kind=kind):
            return _TS[kind]
        case Literals(values=values):
            return " | ".join(json.dumps(value) for value in values)
        case ListOf(item=item):
            inner = ts(item)
            return f"({inner})[]" if isinstance(item, OneOf | Literals) and " | " in inner else f"{inner}[]"
        case MapOf(value=value):
            return f"Record<string, {ts(value)}>"
        case OneOf(options=options):
            return " | ".join(dict.fromkeys(ts(option) for option in options))
        case RecordShape(name=name):
            return name


def py(shape: Shape) -> str:
    """Python's spelling of `shape`."""
    match shape:
        case Scalar(kind=kind):
            return _PY[kind]
        case Literals(values=values):
            return f"Literal[{', '.join(repr(value) for value in values)}]"
        case ListOf(item=item):
            return f"list[{py(item)}]"
        case MapOf(value=value):
            return f"dict[str, {py(value)}]"
        case OneOf(options=options):
            return " | ".join(dict.fromkeys(py(option) for option in options))
        case RecordShape(name=name):
            return name


def words(shape: Shape) -> str:
    """What `shape` wants, as a person says it: `a whole number`, `a string or null`."""
    match shape:
        case Scalar(kind=kind):
            return _WORDS[kind]
        case Literals(values=values):
            return "one of " + ", ".join(json.dumps(value) for value in values)
        case ListOf():
            return "a list"
        case MapOf():
            return "an object"
        case OneOf(options=options):
            return " or ".join(dict.fromkeys(words(option) for option in options))
        case RecordShape(name=name):
            return f"an object (`{name}`)"


def accepts_null(shape: Shape) -> bool:
    match shape:
        case Scalar(kind=kind):
            return kind in (ScalarKind.NULL, ScalarKind.ANY)
        case OneOf(options=options):
            return any(accepts_null(option) for option in options)
        case _:
            return False


def records_in(shape: Shape) -> list[RecordShape]:
    """Every record `shape` reaches, each once, a record after the records its fields name."""
    found: dict[str, RecordShape] = {}
    _collect(shape, found)
    return list(found.values())


def _collect(shape: Shape, found: dict[str, RecordShape]) -> None:
    match shape:
        case ListOf(item=inner) | MapOf(value=inner):
            _collect(inner, found)
        case OneOf(options=options):
            for option in options:
                _collect(option, found)
        case RecordShape(name=name, fields=fields):
            if name not in found:
                for f in fields:
                    _collect(f.shape, found)
                found[name] = shape
        case Scalar() | Literals():
            pass


def named(shape: Shape) -> list[str]:
    """The record names `shape` itself spells (not those inside the records), each once."""
    match shape:
        case ListOf(item=inner) | MapOf(value=inner):
            return named(inner)
        case OneOf(options=options):
            return list(dict.fromkeys(name for option in options for name in named(option)))
        case RecordShape(name=name):
            return [name]
        case Scalar() | Literals():
            return []
