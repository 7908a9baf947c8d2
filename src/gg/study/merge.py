"""Layering capability-set documents: a base, a variant's overrides, a study's own keys.

Rules:
- objects merge key by key, the later layer winning; a key only the later layer writes is added;
- the lists whose items have an identity merge item by item on it: `agents` by `slug`,
  `capabilities` by `id`; an item the later layer names and the earlier lacks is appended, and an
  item without its identity key is appended as written;
- every other list, and every scalar, is replaced whole;
- every node of the result remembers which layer wrote it last, and where (`Provenance`), so a
  defect found in the result is reported at the key that caused it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from gg.config.defects import Loc, mapping, sequence

__all__ = ["IDENTITY_KEYS", "Layer", "Layered", "layer"]

IDENTITY_KEYS: Mapping[str, str] = {"agents": "slug", "capabilities": "id"}


@dataclass(frozen=True)
class Layer:
    """One document to lay over the ones before it. `where` maps a key path inside it to the
    study's key path of the same key; `note` says which file it came from, when it did."""

    document: Mapping[str, Any]
    where: Callable[[Loc], Loc]
    note: str = ""


@dataclass(frozen=True)
class Layered:
    """The merged document, and for each of its nodes the layer (by index) and path that wrote it."""

    document: dict[str, Any]
    layers: tuple[Layer, ...]
    written: Mapping[Loc, tuple[int, Loc]] = field(default_factory=dict[Loc, tuple[int, Loc]])

    def origin(self, loc: Loc) -> tuple[Layer, Loc]:
        """The layer and the study key path answering for `loc` in the merged document: the
        deepest written node on the way to it, extended by the rest of `loc`."""
        for depth in range(len(loc), -1, -1):
            written = self.written.get(loc[:depth])
            if written is not None:
                index, inner = written
                chosen = self.layers[index]
                return chosen, chosen.where((*inner, *loc[depth:]))
        first = self.layers[0]
        return first, first.where(loc)


def layer(layers: tuple[Layer, ...]) -> Layered:
    """`layers` merged in order, each over the ones before it."""
    merged: dict[str, Any] = {}
    written: dict[Loc, tuple[int, Loc]] = {}
    for index, each in enumerate(layers):
        merged = cast(dict[str, Any], _merge(merged, each.document, index, (), (), written))
    return Layered(merged, layers, written)


def _merge(
    earlier: object, later: object, index: int, loc: Loc, inner: Loc, written: dict[Loc, tuple[int, Loc]]
) -> object:
    """`later` over `earlier` at merged path `loc` (`inner` is the same node's path in `later`)."""
    written[loc] = (index, inner)
    over, under = mapping(later), mapping(earlier)
    if over is not None and under is not None:
        result = dict(under)
        for key, value in over.items():
            result[key] = _merge(under.get(key), value, index, (*loc, key), (*inner, key), written)
        return result
    key = IDENTITY_KEYS.get(str(loc[-1])) if loc else None
    items_over, items_under = sequence(later), sequence(earlier)
    if key is not None and items_over is not None and items_under is not None:
        return _merge_items(list(items_under), list(items_over), key, index, loc, inner, written)
    _record(later, index, loc, inner, written)
    return later


def _merge_items(
    result: list[Any],
    items: list[Any],
    key: str,
    index: int,
    loc: Loc,
    inner: Loc,
    written: dict[Loc, tuple[int, Loc]],
) -> list[Any]:
    for position, item in enumerate(items):
        identity = (mapping(item) or {}).get(key)
        at = next(
            (
                n
                for n, old in enumerate(result)
                if identity is not None and (mapping(old) or {}).get(key) == identity
            ),
            None,
        )
        if at is None:
            at = len(result)
            result.append(None)
        result[at] = _merge(result[at], item, index, (*loc, at), (*inner, position), written)
    return result


def _record(value: object, index: int, loc: Loc, inner: Loc, written: dict[Loc, tuple[int, Loc]]) -> None:
    """Every node inside a value taken whole was written by the layer that holds it."""
    written[loc] = (index, inner)
    if (found := mapping(value)) is not None:
        for key, child in found.items():
            _record(child, index, (*loc, key), (*inner, key), written)
    elif (items := sequence(value)) is not None:
        for position, child in enumerate(items):
            _record(child, index, (*loc, position), (*inner, position), written)
