"""Python annotations read into shapes (`gg.sdk.shapes`): what a host function's parameters and
result may be.

Rules kept here:
- `str`, `int`, `float`, `bool`, `None`, `Any` / `object` (any JSON value); `list[T]` (or a
  `Sequence[T]`); `dict[str, T]` (or a `Mapping[str, T]`); `Literal[...]` of strings, whole
  numbers and booleans; unions (`X | Y`, `Optional[X]`); a `TypedDict`, a dataclass or a pydantic
  model as a record; `Annotated[T, "doc"]` is `T`, its first string its doc line;
- a record's fields are its `TypedDict` keys (required unless `NotRequired` / `total=False`), its
  dataclass fields (required unless defaulted) or its pydantic fields (by alias when one is set);
  its doc is its class docstring; two records of one name must be one class, and a record may not
  contain itself;
- anything else is a `TypeError` naming where it was met and what may be written instead.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import inspect
import sys
import types
import typing
from typing import Any

from gg.sdk.shapes import (
    ListOf,
    Literals,
    MapOf,
    OneOf,
    RecordField,
    RecordShape,
    Scalar,
    ScalarKind,
    Shape,
)

SUPPORTED = (
    "str, int, float, bool, None, Any, list[...], dict[str, ...], Literal[...], a union, "
    "a TypedDict, a dataclass or a pydantic model"
)
_SCALARS: dict[Any, ScalarKind] = {
    str: ScalarKind.STRING,
    int: ScalarKind.INTEGER,
    float: ScalarKind.NUMBER,
    bool: ScalarKind.BOOLEAN,
    None: ScalarKind.NULL,
    type(None): ScalarKind.NULL,
    Any: ScalarKind.ANY,
    object: ScalarKind.ANY,
}
_LISTS = (list, collections.abc.Sequence)
_MAPS = (dict, collections.abc.Mapping)
_WRAPPERS = tuple(
    getattr(typing, name) for name in ("Required", "NotRequired", "ReadOnly") if hasattr(typing, name)
)


class Reading:
    """One function's annotations being read: the records met so far, by name, and the ones
    being read (to refuse a record that contains itself)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.records: dict[str, RecordShape] = {}
        self._open: list[str] = []

    def shape(self, hint: Any) -> Shape:
        """The shape of `hint`. Raises `TypeError`."""
        hint = strip_annotated(hint)
        if _hashable(hint) and hint in _SCALARS:
            return Scalar(_SCALARS[hint])
        origin, arguments = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Literal:
            return _literals(arguments, self.where, hint)
        if origin in (typing.Union, types.UnionType):
            return _union(tuple(self.shape(argument) for argument in arguments))
        if origin in _LISTS and len(arguments) == 1:
            return ListOf(self.shape(arguments[0]))
        if origin in _MAPS and len(arguments) == 2:
            if strip_annotated(arguments[0]) is not str:
                raise self.refusal(hint, "a dict's keys must be `str`")
            return MapOf(self.shape(arguments[1]))
        if isinstance(hint, type) and is_record_class(hint):
            return self.record(hint)
        raise self.refusal(hint)

    def record(self, cls: type) -> RecordShape:
        name = cls.__name__
        known = self.records.get(name)
        if known is not None:
            if known.origin is not cls:
                raise self.refusal(cls, f"two different records are both named `{name}`")
            return known
        if name in self._open:
            raise self.refusal(cls, f"`{name}` contains itself, which a record may not")
        self._open.append(name)
        try:
            shape = RecordShape(name, tuple(self._fields(cls)), class_doc(cls), origin=cls)
        finally:
            self._open.remove(name)
        self.records[name] = shape
        return shape

    def _fields(self, cls: type) -> list[RecordField]:
        fields: list[RecordField] = []
        for name, hint, required, doc in record_members(cls):
            if not name.isidentifier():
                raise self.refusal(cls, f"its field `{name}` is not an identifier")
            fields.append(RecordField(name, self.shape(hint), required, doc or doc_of(hint)))
        return fields

    def refusal(self, hint: Any, why: str = "") -> TypeError:
        reason = why or f"it is not a type a host function can take ({SUPPORTED})"
        return TypeError(f"{self.where}: `{spelled(hint)}`: {reason}")


def strip_annotated(hint: Any) -> Any:
    """`hint` without `Annotated[...]` and the `TypedDict` key wrappers (`NotRequired[...]`)."""
    while True:
        origin = typing.get_origin(hint)
        if origin is typing.Annotated or origin in _WRAPPERS:
            hint = typing.get_args(hint)[0]
        else:
            return hint


def doc_of(hint: Any) -> str:
    """The first string in `hint`'s `Annotated[...]` metadata: its doc line; "" when none."""
    while True:
        origin = typing.get_origin(hint)
        if origin is typing.Annotated:
            found = [item for item in hint.__metadata__ if isinstance(item, str)]
            if found:
                return found[0]
        if origin is typing.Annotated or origin in _WRAPPERS:
            hint = typing.get_args(hint)[0]
        else:
            return ""


def is_record_class(cls: type) -> bool:
    return _is_typeddict(cls) or dataclasses.is_dataclass(cls) or _is_pydantic_model(cls)


def _is_typeddict(cls: type) -> bool:
    """A `TypedDict` of `typing`'s or of `typing_extensions`' (which pydantic asks for before 3.12)."""
    extensions = sys.modules.get("typing_extensions")
    return typing.is_typeddict(cls) or (extensions is not None and extensions.is_typeddict(cls))


def record_members(cls: type) -> list[tuple[str, Any, bool, str]]:
    """(field name, annotation, required, doc) for each field of a record class."""
    if _is_typeddict(cls):
        hints = typing.get_type_hints(cls, include_extras=True)
        required: frozenset[str] = getattr(cls, "__required_keys__", frozenset(hints))
        return [(name, hint, _key_required(hint, name in required), "") for name, hint in hints.items()]
    if dataclasses.is_dataclass(cls):
        hints = typing.get_type_hints(cls, include_extras=True)
        return [
            (f.name, hints[f.name], _required_field(f), str(f.metadata.get("doc", "")))
            for f in _fields_of(cls)
        ]
    return _pydantic_members(cls)


def _key_required(hint: Any, declared: bool) -> bool:
    """A `TypedDict` key's own `Required[...]` / `NotRequired[...]`, read from its annotation (which
    a class under `from __future__ import annotations` leaves to be read), else the class's word."""
    while typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    origin = typing.get_origin(hint)
    extensions = sys.modules.get("typing_extensions")
    for module in (typing, extensions):
        if module is not None and origin is getattr(module, "NotRequired", None):
            return False
        if module is not None and origin is getattr(module, "Required", None):
            return True
    return declared


def _fields_of(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


def _required_field(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _pydantic_members(cls: type) -> list[tuple[str, Any, bool, str]]:
    members: list[tuple[str, Any, bool, str]] = []
    for name, info in getattr(cls, "model_fields", {}).items():
        hint = info.annotation
        if info.metadata:
            hint = typing.Annotated[hint, *info.metadata]
        members.append((info.alias or name, hint, info.is_required(), info.description or ""))
    return members


def _is_pydantic_model(cls: type) -> bool:
    """A pydantic model, told without importing pydantic: a model's module has loaded it."""
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and issubclass(cls, pydantic.BaseModel)


def class_doc(cls: type) -> str:
    """A record's doc line: the first paragraph of its docstring, on one line ("" for none, and
    for the signature dataclasses write in place of a missing docstring)."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or (dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}(")):
        return ""
    return first_paragraph(doc)


def first_paragraph(doc: str) -> str:
    return " ".join(inspect.cleandoc(doc).split("\n\n", 1)[0].split())


def spelled(hint: Any) -> str:
    """`hint` as its author would have written it."""
    if isinstance(hint, type) and not typing.get_args(hint):
        return hint.__name__
    return str(hint).replace("typing.", "")


def _literals(arguments: tuple[Any, ...], where: str, hint: Any) -> Literals:
    for value in arguments:
        if not isinstance(value, str | int):  # a bool is an int
            raise TypeError(
                f"{where}: `{spelled(hint)}`: a Literal may hold strings, whole numbers and booleans"
            )
    return Literals(tuple(arguments))


def _union(options: tuple[Shape, ...]) -> Shape:
    """One union, nested ones flattened, each alternative once."""
    flat: list[Shape] = []
    for option in options:
        for inner in option.options if isinstance(option, OneOf) else (option,):
            if inner not in flat:
                flat.append(inner)
    return flat[0] if len(flat) == 1 else OneOf(tuple(flat))


def _hashable(hint: Any) -> bool:
    try:
        hash(hint)
    except TypeError:
        return False
    return True
