"""Shapes (`gg.sdk.shapes`) as JSON data, so a recording carries the declarations of the host
functions a session called. A record is written once, with its fields, and referred to by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from gg.sdk.shape_check import object_of, shown
from gg.sdk.shapes import ListOf, Literals, MapOf, OneOf, RecordField, RecordShape, Scalar, ScalarKind, Shape


def to_json(shape: Shape) -> Any:
    """`shape` as JSON data; a record is referred to by its name."""
    match shape:
        case Scalar(kind=kind):
            return kind.value
        case Literals(values=values):
            return {"literal": list(values)}
        case ListOf(item=item):
            return {"list": to_json(item)}
        case MapOf(value=value):
            return {"map": to_json(value)}
        case OneOf(options=options):
            return {"oneOf": [to_json(option) for option in options]}
        case RecordShape(name=name):
            return {"record": name}


def record_to_json(record: RecordShape) -> dict[str, Any]:
    fields = [
        {"name": f.name, "shape": to_json(f.shape), "required": f.required, "doc": f.doc}
        for f in record.fields
    ]
    written: dict[str, Any] = {"name": record.name, "doc": record.doc, "fields": fields}
    return {**written, "open": True} if record.open else written


def from_json(data: Any, records: Mapping[str, RecordShape]) -> Shape:
    """The shape `data` (from `to_json`) describes. Raises `ValueError` for anything else, and for
    a record name not in `records`."""
    if isinstance(data, str):
        try:
            return Scalar(ScalarKind(data))
        except ValueError:
            raise ValueError(f"`{data}` is not a scalar shape") from None
    entry = object_of(data)
    if entry is None or len(entry) != 1:
        raise ValueError(f"{shown(data)} is not a shape")
    ((key, inner),) = entry.items()
    match key:
        case "literal" if isinstance(inner, list) and all(_is_literal(v) for v in _items(inner)):
            return Literals(tuple(_items(inner)))
        case "list":
            return ListOf(from_json(inner, records))
        case "map":
            return MapOf(from_json(inner, records))
        case "oneOf" if isinstance(inner, list) and _items(inner):
            return OneOf(tuple(from_json(option, records) for option in _items(inner)))
        case "record" if isinstance(inner, str) and inner in records:
            return records[inner]
        case _:
            raise ValueError(f"{shown(data)} is not a shape")


def record_from_json(data: Any, records: Mapping[str, RecordShape]) -> RecordShape:
    """The record `data` (from `record_to_json`) describes; the records its fields name must be in
    `records` already. Raises `ValueError`."""
    entry = object_of(data)
    if entry is None or not isinstance(entry.get("name"), str) or not isinstance(entry.get("fields"), list):
        raise ValueError(f"{shown(data)} is not a record")
    fields = tuple(_field_from_json(f, records) for f in _items(entry["fields"]))
    return RecordShape(
        str(entry["name"]), fields, str(entry.get("doc") or ""), open=entry.get("open") is True
    )


def _field_from_json(data: Any, records: Mapping[str, RecordShape]) -> RecordField:
    entry = object_of(data)
    if entry is None or not isinstance(entry.get("name"), str):
        raise ValueError(f"{shown(data)} is not a record field")
    shape = from_json(entry.get("shape"), records)
    doc = str(entry.get("doc") or "")
    return RecordField(str(entry["name"]), shape, bool(entry.get("required", True)), doc)


def _items(data: Any) -> list[Any]:
    return cast(list[Any], data)


def _is_literal(value: Any) -> bool:
    return isinstance(value, str | int)  # a bool is an int
