"""JSON Schema read into shapes (`gg.sdk.shapes`): what an MCP tool's input and output schemas
declare, as the same shapes a host function's annotations are read into. Pure.

Rules kept here:
- `string`, `integer`, `number`, `boolean`, `null`; an `array` of its `items` (of anything when
  it names none); an `object` with `properties` is a record (its `required` fields required,
  each field's `description` its doc), one without is a map of its `additionalProperties` (of
  anything when it names none); a record takes fields it does not declare unless the schema says
  `additionalProperties: false`; a list of types, `anyOf` and `oneOf` are a union; `enum` and
  `const` of strings, whole numbers and booleans are literals (`null` among them joins the union);
  `allOf` of one schema is that schema; a schema that says nothing is any JSON value;
- `$ref` follows `#/$defs/<name>` and `#/definitions/<name>` within the document; a reference
  that cannot be followed, or one a record reaches inside itself, is any JSON value there;
- a record is named for its module, then for its `$defs` entry, else its `title`, else where it
  stands (the tool and the field path), in PascalCase (`NotesAddress`); two different records
  that would share a name are told apart by `2`, `3`, ... (`SchemaReading.records` holds every one
  read, across the tools of one server);
- what a schema says besides its shape (`minimum`, `pattern`, `format`, ...) is not a shape; the
  whole schema is judged when a call is made (`gg.mcp.arguments`).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

from gg.mcp.naming import pascal
from gg.sdk.shape_check import object_of
from gg.sdk.shapes import ListOf, Literals, MapOf, OneOf, RecordField, RecordShape, Scalar, ScalarKind, Shape

_SCALARS = {kind.value: Scalar(kind) for kind in ScalarKind if kind is not ScalarKind.ANY}
ANY = Scalar(ScalarKind.ANY)
_REF_PREFIXES = ("#/$defs/", "#/definitions/")


class SchemaReading:
    """The schemas of one server's tools being read: the records named so far, by name, and the
    names taken by other modules (gg's own records, say)."""

    def __init__(self, module: str, taken: frozenset[str] = frozenset()) -> None:
        self.prefix = pascal(module)
        self.records: dict[str, RecordShape] = {}
        self._taken = taken
        self._document: Mapping[str, Any] = {}
        self._open: list[str] = []

    def read(self, schema: Any, document: Mapping[str, Any], where: str) -> Shape:
        """The shape of `schema`, a part of `document` (whose `$defs` its references name);
        `where` names the place it stands, for a record with no name of its own."""
        self._document = document
        return self._shape(schema, where)

    def _shape(self, schema: Any, where: str) -> Shape:
        entry = object_of(schema)
        if entry is None:
            return ANY
        if "$ref" in entry:
            return self._referred(entry["$ref"])
        for key in ("anyOf", "oneOf"):
            if isinstance(entry.get(key), list):
                return _union([self._shape(option, where) for option in _items(entry[key])])
        if isinstance(entry.get("allOf"), list) and len(entry["allOf"]) == 1:
            return self._shape(entry["allOf"][0], where)
        if "enum" in entry or "const" in entry:
            return _literals(_items(entry["enum"]) if "enum" in entry else [entry["const"]])
        kinds = entry.get("type")
        if isinstance(kinds, list):
            return _union([self._typed(entry, kind, where) for kind in _items(kinds)])
        if kinds is None and "properties" in entry:
            kinds = "object"
        return self._typed(entry, kinds, where)

    def _typed(self, entry: dict[str, Any], kind: Any, where: str) -> Shape:
        if kind == "array":
            return ListOf(self._shape(entry.get("items", {}), f"{where} item"))
        if kind == "object":
            return self._object(entry, where)
        return _SCALARS.get(kind, ANY) if isinstance(kind, str) else ANY

    def _object(self, entry: dict[str, Any], where: str, name: str | None = None) -> Shape:
        properties = object_of(entry.get("properties"))
        if not properties:
            extra = entry.get("additionalProperties")
            return MapOf(self._shape(extra, f"{where} value") if isinstance(extra, dict) else ANY)
        wanted = f"{self.prefix}{pascal(name or _title(entry) or where)}"
        if wanted in self._open:
            return ANY
        self._open.append(wanted)
        try:
            required = {key for key in _items(entry.get("required", [])) if isinstance(key, str)}
            fields = tuple(
                RecordField(key, self._shape(field, f"{where} {key}"), key in required, described(field))
                for key, field in properties.items()
            )
        finally:
            self._open.remove(wanted)
        is_open = entry.get("additionalProperties", True) is not False
        return self._named(RecordShape(wanted, fields, described(entry), open=is_open))

    def _referred(self, ref: Any) -> Shape:
        prefix = next((p for p in _REF_PREFIXES if isinstance(ref, str) and ref.startswith(p)), None)
        defs = object_of(self._document.get(prefix.split("/")[1])) if prefix else None
        name = ref[len(prefix) :] if prefix and isinstance(ref, str) else ""
        target = None if defs is None else object_of(defs.get(name))
        if target is None:
            return ANY
        if f"{self.prefix}{pascal(name)}" in self._open:
            return ANY
        if target.get("type", "object") == "object" and "properties" in target:
            return self._object(target, name, name)
        return self._shape(target, name)

    def _named(self, record: RecordShape) -> RecordShape:
        """`record` under a name no other record of the server or module already holds."""
        name, n = record.name, 1
        while (name in self.records and self.records[name] != _renamed(record, name)) or name in self._taken:
            n += 1
            name = f"{record.name}{n}"
        kept = _renamed(record, name)
        self.records.setdefault(name, kept)
        return self.records[name]


def described(schema: Any) -> str:
    """A schema's doc line: its `description`, else its `title`, on one line."""
    entry = object_of(schema) or {}
    text = entry.get("description") or ""
    return " ".join(text.split()) if isinstance(text, str) else ""


def _title(entry: Mapping[str, Any]) -> str:
    title = entry.get("title")
    return title if isinstance(title, str) else ""


def _renamed(record: RecordShape, name: str) -> RecordShape:
    return RecordShape(name, record.fields, record.doc, open=record.open)


def _union(options: list[Shape]) -> Shape:
    unique = list(dict.fromkeys(options))
    if ANY in unique:
        return ANY
    return unique[0] if len(unique) == 1 else OneOf(tuple(unique))


def _literals(values: list[Any]) -> Shape:
    """Literals of strings, whole numbers and booleans; `null` among them joins the union; any
    other value makes it any JSON value."""
    nullable = any(value is None for value in values)
    kept = [value for value in values if value is not None]
    if not all(isinstance(v, str | bool) or (isinstance(v, int) and not isinstance(v, bool)) for v in kept):
        return ANY
    if not kept:
        return Scalar(ScalarKind.NULL)
    literals = Literals(tuple(dict.fromkeys(kept)))
    return OneOf((literals, Scalar(ScalarKind.NULL))) if nullable else literals


def _items(value: Any) -> list[Any]:
    return typing.cast(list[Any], value)
