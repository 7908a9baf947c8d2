"""Values between the wire and a host function, by the declared shapes.

- `decode`: a wire value the membrane judged to fit its shape, as the function's own types take
  it: a number declared `float` arrives as a `float` (a JSON integer is a valid float), a whole
  number declared `int` as an `int`, a record as its class (a dataclass or pydantic model built
  from its fields; a `TypedDict` stays a dict); a union's value is read by the first option it
  fits;
- `encode`: what the function returned, as JSON data: a dataclass or pydantic model becomes an
  object of its fields (pydantic's own JSON form, by alias), a tuple a list; the result is then
  judged against the declared shape (`gg.sdk.shape_check.violation`), so a function that answers outside its
  declaration fails rather than handing the program something it did not promise.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gg.sdk.shape_check import object_of, violation
from gg.sdk.shapes import ListOf, Literals, MapOf, OneOf, RecordShape, Scalar, ScalarKind, Shape


def decode(shape: Shape, value: Any) -> Any:
    """`value` (JSON data fitting `shape`) as the function takes it."""
    match shape:
        case Scalar(kind=ScalarKind.NUMBER):
            return float(value)
        case Scalar(kind=ScalarKind.INTEGER):
            return int(value)
        case Scalar() | Literals():
            return value
        case ListOf(item=item):
            return [decode(item, v) for v in value]
        case MapOf(value=inner):
            return {key: decode(inner, v) for key, v in value.items()}
        case OneOf(options=options):
            option = next((o for o in options if violation(o, value) is None), options[0])
            return decode(option, value)
        case RecordShape():
            return _decode_record(shape, value)


def _decode_record(shape: RecordShape, value: dict[str, Any]) -> Any:
    fields = {f.name: decode(f.shape, value[f.name]) for f in shape.fields if f.name in value}
    origin = shape.origin
    if (
        origin is None
        or not isinstance(origin, type)
        or not (dataclasses.is_dataclass(origin) or hasattr(origin, "model_validate"))
    ):
        return fields  # a TypedDict, or a record read back from a recording
    if dataclasses.is_dataclass(origin):
        return origin(**fields)
    return origin.model_validate(fields)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]


def encode(shape: Shape, value: Any) -> Any:
    """What a function returned, as JSON data (see the module docstring); a value that cannot be
    read by its shape is left as it is, for the judge to name."""
    match shape:
        case ListOf(item=item) if isinstance(value, list | tuple):
            return [encode(item, v) for v in value]  # pyright: ignore[reportUnknownVariableType]
        case MapOf(value=inner) if isinstance(value, dict):
            return {key: encode(inner, v) for key, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
        case OneOf(options=options):
            for option in options:
                encoded = encode(option, value)
                if violation(option, encoded) is None:
                    return encoded
            return value
        case RecordShape():
            return _encode_record(shape, value)
        case _:
            return value


def _encode_record(shape: RecordShape, value: Any) -> Any:
    if hasattr(value, "model_dump") and not isinstance(value, type):
        return value.model_dump(mode="json", by_alias=True)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in shape.fields if hasattr(value, f.name)}
    entry = object_of(value)
    if entry is None:
        return value
    declared = {f.name: f.shape for f in shape.fields}
    return {key: encode(declared[key], item) if key in declared else item for key, item in entry.items()}
