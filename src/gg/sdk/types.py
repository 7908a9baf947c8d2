"""The vocabulary for declaring what SDK calls hand back, and the one grammar of type expressions.

Result types are declared once (`gg.sdk.records`) as values of three kinds, each owned by the family
whose module exports it:
- `Record`: an object with named fields (wire spelling, camelCase), each with a type and a doc line;
- `Union`: one of several declared records, told apart by a literal field (`kind: "text"`);
- `Choice`: one of a fixed set of strings (`"file" | "directory" | "other"`).

A type expression (an operation's `returns`, a field's `type`) is a string in this grammar:
`term ("|" term)*`, where a term is a primitive (`string`, `number`, `boolean`, `void`,
`unknown`, `null`), a declared type's name, or a string literal in double quotes, followed by any
number of `[]` (a list). It is TypeScript's spelling, so the TypeScript catalogues quote it as is;
other arms read it with `terms`.

A host function's records (`gg.sdk.host`) are declared here too, as `plain` records: each field
carries its `shape` (`gg.sdk.shapes`), which spells it for every arm, and its `type` is that
shape's TypeScript spelling, which may lie outside the grammar; `field_names` reads either.
A plain record crosses as a plain object on every arm (a `TypedDict` in Python), its fields
spelled as their author wrote them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from gg.sdk.shapes import Shape, named

PRIMITIVES = frozenset({"string", "number", "boolean", "void", "unknown", "null"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LITERAL = re.compile(r'"[^"\\]*"')


@dataclass(frozen=True)
class Field:
    """One field of a record: its wire name (camelCase), type expression and meaning."""

    name: str
    type: str
    doc: str
    optional: bool = False
    shape: Shape | None = None  # a host record's field: its shape, of which `type` is the TS spelling

    @property
    def wire_name(self) -> str:
        """The field's name on the wire: `name` itself, which is declared in wire spelling."""
        return self.name


@dataclass(frozen=True)
class Record:
    name: str
    family: str
    doc: str
    fields: tuple[Field, ...]
    plain: bool = False  # a host function's record: a plain object on every arm (see the module doc)


@dataclass(frozen=True)
class Union:
    """One of `members` (declared records), told apart by their literal `kind` field."""

    name: str
    family: str
    doc: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Choice:
    name: str
    family: str
    doc: str
    values: tuple[str, ...]


TypeDecl = Record | Union | Choice


@dataclass(frozen=True)
class Term:
    """One alternative of a type expression: `base` (a primitive, a name or a quoted literal)
    wrapped in `depth` lists."""

    base: str
    depth: int = 0

    @property
    def is_literal(self) -> bool:
        return self.base.startswith('"')

    @property
    def is_primitive(self) -> bool:
        return self.base in PRIMITIVES

    @property
    def is_name(self) -> bool:
        return not self.is_literal and not self.is_primitive


def terms(expression: str) -> tuple[Term, ...]:
    """The alternatives of `expression`. Raises `ValueError` for text outside the grammar."""
    found: list[Term] = []
    for raw in expression.split("|"):
        text = raw.strip()
        depth = 0
        while text.endswith("[]"):
            text, depth = text[:-2].rstrip(), depth + 1
        if not (_NAME.fullmatch(text) or _LITERAL.fullmatch(text)):
            raise ValueError(f"`{expression}` is not a type expression")
        found.append(Term(text, depth))
    return tuple(found)


def names_in(expression: str) -> list[str]:
    """The declared-type names `expression` refers to, in order, each once."""
    return list(dict.fromkeys(term.base for term in terms(expression) if term.is_name))


def field_names(field: Field) -> list[str]:
    """The declared-type names a field's type refers to: read from its shape when it has one."""
    if field.shape is not None:
        return named(field.shape)
    return names_in(field.type)


def referenced(decl: TypeDecl) -> list[str]:
    """The declared-type names a declaration refers to."""
    match decl:
        case Record(fields=fields):
            return list(dict.fromkeys(name for f in fields for name in field_names(f)))
        case Union(members=members):
            return list(members)
        case Choice():
            return []


def by_name(decls: Iterable[TypeDecl]) -> dict[str, TypeDecl]:
    """Declarations keyed by name. Raises `ValueError` for a name declared twice."""
    table: dict[str, TypeDecl] = {}
    for decl in decls:
        if decl.name in table:
            raise ValueError(f"type {decl.name} declared twice")
        table[decl.name] = decl
    return table
