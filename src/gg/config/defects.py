"""Findings and how a refusal shows them: key paths, found values, document order.

Rules:
- a key path reads like the document: `agents[0].capabilities[1].params.idLength`; a key that is
  not a plain name is quoted (`limits["max turns"]`); the whole document is `(document)`;
- the found value is what the document holds at that path, rendered as JSON and cut to
  `MAX_FOUND_CHARS`; a key nobody wrote is `(absent)`;
- defects are listed in document order (a key nobody wrote after the keys written beside it),
  each (path, reason) once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from gg.errors import MAX_FOUND_CHARS, ConfigDefect, shown_found

__all__ = [
    "ABSENT",
    "DOCUMENT",
    "MAX_FOUND_CHARS",
    "UNREADABLE",
    "Finding",
    "Loc",
    "mapping",
    "render_defects",
    "render_found",
    "render_path",
    "sequence",
    "value_at",
]

Loc = tuple[str | int, ...]
DOCUMENT = "(document)"


@dataclass(frozen=True)
class Marker:
    """A found value that is not a document value; shown as its label."""

    label: str


ABSENT: Final = Marker("(absent)")  # the value at a key nobody wrote
UNREADABLE: Final = Marker("(unreadable)")  # a file gg could not read
_FROM_DOCUMENT: Final = object()
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Finding:
    """One defect before rendering: where (`loc`, document keys and indices), and why.

    `found` defaults to whatever the document holds at `loc`; a rule may name something more
    telling (the slugs it saw, say)."""

    loc: Loc
    reason: str
    found: object = _FROM_DOCUMENT


def render_path(loc: Loc) -> str:
    """`("agents", 0, "slug")` → `agents[0].slug`."""
    parts: list[str] = []
    for element in loc:
        if isinstance(element, int):
            parts.append(f"[{element}]")
        elif _NAME.fullmatch(element):
            parts.append(f".{element}" if parts else element)
        else:
            parts.append(f"[{json.dumps(element, ensure_ascii=False)}]")
    return "".join(parts) or DOCUMENT


def render_found(value: object) -> str:
    """The value as JSON, cut to `MAX_FOUND_CHARS` with an ellipsis; `(absent)` when missing."""
    if isinstance(value, Marker):
        return value.label
    return shown_found(value)


def value_at(document: object, loc: Loc) -> object:
    """What the document holds at `loc`, or `ABSENT`."""
    node = document
    for element in loc:
        node = _child(node, element)
    return node


def _child(node: object, element: str | int) -> object:
    if isinstance(node, Mapping) and isinstance(element, str):
        return cast(Mapping[str, object], node).get(element, ABSENT)
    if isinstance(node, list) and isinstance(element, int):
        items = cast(list[object], node)
        return items[element] if 0 <= element < len(items) else ABSENT
    return ABSENT


def _position(document: object, loc: Loc) -> tuple[int, ...]:
    """Where `loc` sits in the document, for sorting: key order within objects, then indices."""
    node, position = document, list[int]()
    for element in loc:
        keys = list(cast(Mapping[str, object], node)) if isinstance(node, Mapping) else []
        if isinstance(element, int):
            position.append(element)
        else:
            position.append(keys.index(element) if element in keys else len(keys))
        node = _child(node, element)
    return tuple(position)


def render_defects(findings: Iterable[Finding], document: object) -> list[ConfigDefect]:
    """Every finding once, in document order, as `ConfigDefect(path, found, reason)`."""
    seen: set[tuple[Loc, str]] = set()
    unique: list[Finding] = []
    for finding in findings:
        if (finding.loc, finding.reason) not in seen:
            seen.add((finding.loc, finding.reason))
            unique.append(finding)
    unique.sort(key=lambda finding: _position(document, finding.loc))
    return [_render(finding, document) for finding in unique]


def _render(finding: Finding, document: object) -> ConfigDefect:
    found = value_at(document, finding.loc) if finding.found is _FROM_DOCUMENT else finding.found
    return ConfigDefect(path=render_path(finding.loc), found=render_found(found), reason=finding.reason)


def sequence(value: object) -> Sequence[Any] | None:
    """`value` if it is a list (a TOML array), else None."""
    return value if isinstance(value, list) else None


def mapping(value: object) -> Mapping[str, Any] | None:
    """`value` if it is an object (a TOML table), else None."""
    return value if isinstance(value, Mapping) else None
