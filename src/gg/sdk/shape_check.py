"""Judging a JSON value against a shape (`gg.sdk.shapes`): the host's check of every argument a
host function is called with, and of every answer it gives. Pure.

Rules kept here:
- a whole number is a valid number, a whole float a valid whole number, a boolean never a number;
  a non-finite float is nothing at all;
- an object's keys are strings; a record refuses a field it requires missing, and one it does not
  declare unless it is open;
- a union takes a value one of its options takes; when none does and exactly one option is the
  value's kind of thing (an object, a list), that option's own finding is reported;
- the first mismatch found is reported with where it is (`[2]`, `.sku`, `["north"]`) and what was
  wanted, in words, with the value received.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from gg.sdk.shapes import ListOf, Literals, MapOf, OneOf, RecordShape, Scalar, ScalarKind, Shape, words

MAX_SHOWN = 40
PLAIN_DEPTH = 64  # how deep plain data may nest, on the host and in every arm's SDK


@dataclass(frozen=True)
class Violation:
    """Where in the value (`[2].sku`, empty for the value itself) and what is wrong there."""

    where: str
    reason: str


def violation(shape: Shape, value: Any) -> Violation | None:
    """The first way `value` (JSON data) fails `shape`, or None when it fits."""
    match shape:
        case Scalar(kind=kind):
            return None if _scalar_fits(kind, value) else _wanted(shape, value)
        case Literals(values=values):
            return None if any(_same(value, v) for v in values) else _wanted(shape, value)
        case ListOf(item=item):
            if not isinstance(value, list):
                return _wanted(shape, value)
            return _first(_inside(f"[{n}]", violation(item, v)) for n, v in enumerate(value))
        case MapOf(value=inner):
            entry = object_of(value)
            if entry is None:
                return _wanted(shape, value)
            return _first(_inside(f"[{json.dumps(k)}]", violation(inner, v)) for k, v in entry.items())
        case RecordShape():
            return _record_violation(shape, value)
        case OneOf(options=options):
            return _union_violation(shape, options, value)


def _scalar_fits(kind: ScalarKind, value: Any) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    match kind:
        case ScalarKind.STRING:
            return isinstance(value, str)
        case ScalarKind.INTEGER:
            return number and (isinstance(value, int) or (math.isfinite(value) and float(value).is_integer()))
        case ScalarKind.NUMBER:
            return number and (isinstance(value, int) or math.isfinite(value))
        case ScalarKind.BOOLEAN:
            return isinstance(value, bool)
        case ScalarKind.NULL:
            return value is None
        case ScalarKind.ANY:
            return is_plain(value)


def is_plain(value: Any, depth: int = PLAIN_DEPTH) -> bool:
    """Whether `value` is JSON data: null, booleans, finite numbers, strings, lists, string-keyed
    objects, at most `depth` deep."""
    if value is None or isinstance(value, str | bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if depth <= 0:
        return False
    if isinstance(value, list):
        return all(is_plain(item, depth - 1) for item in value)  # pyright: ignore[reportUnknownVariableType]
    entry = object_of(value)
    return entry is not None and all(is_plain(item, depth - 1) for item in entry.values())


def _same(value: Any, literal: str | int | bool) -> bool:
    return type(value) is type(literal) and value == literal


def _record_violation(shape: RecordShape, value: Any) -> Violation | None:
    entry = object_of(value)
    if entry is None:
        return _wanted(shape, value)
    declared = {f.name: f for f in shape.fields}
    unknown = [key for key in entry if key not in declared]
    if unknown and not shape.open:
        names = ", ".join(f"`{name}`" for name in declared) or "none"
        return Violation("", f"has no field `{unknown[0]}` (`{shape.name}` has {names})")
    for f in shape.fields:
        if f.name not in entry:
            if f.required:
                return Violation("", f"lacks the field `{f.name}` (`{shape.name}` requires it)")
            continue
        wrong = violation(f.shape, entry[f.name])
        if wrong is not None:
            return _inside(f".{f.name}", wrong)
    return None


def _union_violation(shape: OneOf, options: tuple[Shape, ...], value: Any) -> Violation | None:
    """None when an option fits; else, when exactly one option is the value's kind of thing (an
    object, a list), that option's own finding; else what the union wants."""
    findings = [violation(option, value) for option in options]
    if any(finding is None for finding in findings):
        return None
    alike = [f for option, f in zip(options, findings, strict=True) if _same_kind(option, value)]
    return alike[0] if len(alike) == 1 else _wanted(shape, value)


def _same_kind(shape: Shape, value: Any) -> bool:
    match shape:
        case ListOf():
            return isinstance(value, list)
        case MapOf() | RecordShape():
            return isinstance(value, dict)
        case _:
            return False


def _inside(where: str, found: Violation | None) -> Violation | None:
    return None if found is None else Violation(where + found.where, found.reason)


def _first(findings: Iterator[Violation | None]) -> Violation | None:
    return next((finding for finding in findings if finding is not None), None)


def _wanted(shape: Shape, value: Any) -> Violation:
    return Violation("", f"must be {words(shape)}, got {shown(value)}")


def shown(value: Any) -> str:
    """A short rendering of a value for a message: its JSON, cut at 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def object_of(value: Any) -> dict[str, Any] | None:
    """`value` as a JSON object (a dict with string keys), or None when it is not one."""
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):  # pyright: ignore[reportUnknownVariableType]
        return cast(dict[str, Any], value)
    return None
