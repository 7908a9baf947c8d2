"""pydantic's validation errors, reworded as findings at document key paths.

Rules:
- our value rules (`values.py`) already word their refusals; the message is kept as is;
- pydantic's own error types are reworded from one table; none of its jargon reaches the user;
- a capability's `id` tag, which pydantic puts into its locations, is taken out again; a refused
  key of a table (an MCP server's `env`) is located at its entry, the key as what was found;
- an unknown key is named as such, with the nearest known key of that object when one is close;
  a key gg once read and no longer does is named with why, where its object's model says so
  (a `RETIRED` table: key → why).
"""

from __future__ import annotations

import difflib
import typing
from collections.abc import Iterator
from types import NoneType, UnionType
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from gg.config.catalogue import CapabilityId
from gg.config.defects import Finding, Loc, mapping, value_at
from gg.config.values import REFUSAL

__all__ = ["findings_from"]

_OBJECT = "must be an object (a table in TOML)"
_LIST = "must be a list (an array in TOML)"
_REASONS = {
    "missing": "is required",
    "model_type": _OBJECT,
    "model_attributes_type": _OBJECT,
    "dict_type": _OBJECT,
    "tuple_type": _LIST,
    "list_type": _LIST,
    "union_tag_not_found": "is required: it names the capability",
    "union_tag_invalid": "is not a capability gg knows; known: "
    + ", ".join(capability.value for capability in CapabilityId),
}
_UNREADABLE = "holds a value gg cannot read here"
_TAG_ERRORS = ("union_tag_not_found", "union_tag_invalid")
_KEY = "[key]"  # where pydantic locates a refused key of a dict


def findings_from(error: ValidationError, document: object, root: type[BaseModel]) -> Iterator[Finding]:
    """One finding per pydantic error, located in the document; a refused key of a table of named
    entries is found at its entry, and the key is what was found there."""
    for detail in error.errors():
        loc = _document_loc(detail["loc"], document)
        if detail["type"] in _TAG_ERRORS:
            loc = (*loc, "id")
        if loc and loc[-1] == _KEY:
            yield Finding(loc[:-1], _reason(detail, root), found=loc[-2])
            continue
        yield Finding(loc, _reason(detail, root))


def _reason(detail: ErrorDetails, root: type[BaseModel]) -> str:
    kind = detail["type"]
    if kind == REFUSAL:
        return detail["msg"]
    if kind == "extra_forbidden":
        return _unknown_key(detail["loc"], root)
    return _REASONS.get(kind, _UNREADABLE)


def _document_loc(loc: tuple[str | int, ...], document: object) -> Loc:
    """pydantic's location without the tag it puts after a capability's index (`capabilities[1]`)."""
    kept: list[str | int] = []
    for index, element in enumerate(loc):
        after_capability = index >= 2 and loc[index - 2] == "capabilities" and isinstance(loc[index - 1], int)
        node = mapping(value_at(document, tuple(kept)))
        if after_capability and node is not None and str(node.get("id")) == element:
            continue
        kept.append(element)
    return tuple(kept)


def _unknown_key(loc: tuple[str | int, ...], root: type[BaseModel]) -> str:
    model = _model_at(root, loc[:-1])
    retired: dict[str, str] = getattr(model, "RETIRED", {})
    if str(loc[-1]) in retired:
        return f"is not a key gg reads: {retired[str(loc[-1])]}"
    known = [] if model is None else [field.alias or name for name, field in model.model_fields.items()]
    close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    listing = f" (known here: {', '.join(known)})" if known else ""
    return f"is not a key gg knows{listing}{hint}"


def _model_at(root: type[BaseModel], loc: tuple[str | int, ...]) -> type[BaseModel] | None:
    """The model of the object at pydantic location `loc` (None when it cannot tell)."""
    node: Any = root
    for element in loc:
        node = _step(_unwrap(node), element)
        if node is None:
            return None
    model = _unwrap(node)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _step(node: Any, element: str | int) -> Any:
    if isinstance(element, int):
        args = typing.get_args(node)
        return args[0] if typing.get_origin(node) is tuple and args else None
    if typing.get_origin(node) is dict:  # a table of named entries: every value has one shape
        return typing.get_args(node)[1]
    if isinstance(node, type) and issubclass(node, BaseModel):
        fields = {field.alias or name: field for name, field in node.model_fields.items()}
        return fields[element].annotation if element in fields else None
    for member in typing.get_args(node):  # a capability union: pick the member by its tag
        if element in typing.get_args(member.model_fields["id"].annotation):
            return member
    return None


def _unwrap(node: Any) -> Any:
    """`Annotated[X, …]` → X; `X | None` → X."""
    while typing.get_origin(node) is typing.Annotated:
        node = typing.get_args(node)[0]
    if isinstance(node, UnionType) or typing.get_origin(node) is typing.Union:
        members = [arg for arg in typing.get_args(node) if arg is not NoneType]
        if len(members) == 1:
            return _unwrap(members[0])
    return node
