"""The matchers of the multi-agent fidelity cases (`tests/cases/fidelity/README.md`, "Modules and
delegation cases", point 9), applied to event fields and log lines. A binding made by `bind` is
kept in `Bindings` and read back by `var` / `not_var`; `id_of` names an agent instance."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

ABSENT = "ABSENT"
MATCHERS = frozenset(
    {
        "pattern",
        "one_of",
        "not",
        "at_least",
        "length",
        "contains_items",
        "none_match",
        "distinct_by",
        "bind",
        "var",
        "not_var",
        "id_of",
        "starts_with",
        "contains",
        "contains_any",
        "absent",
        "equals_json",
    }
)


@dataclass
class Bindings:
    """Values a case bound by name, and how a selector names its instance."""

    values: dict[str, Any] = field(default_factory=dict[str, Any])
    id_of: Callable[[str], str] = str


def matches(got: Any, rule: Any, bindings: Bindings) -> bool:
    """Whether `got` satisfies `rule` (a value, a list element-wise, a mapping as a subset, or a
    matcher)."""
    if rule == ABSENT:
        return got is None
    if isinstance(rule, Mapping) and set(rule) & MATCHERS:
        return _matcher(got, rule, bindings)
    if isinstance(rule, Mapping):
        if not isinstance(got, Mapping):
            return False
        return all(matches(got.get(key), value, bindings) for key, value in rule.items())
    if isinstance(rule, list):
        return (
            isinstance(got, list)
            and len(got) == len(rule)
            and all(matches(g, r, bindings) for g, r in zip(got, rule, strict=True))
        )
    return got == rule


def _matcher(got: Any, rule: Mapping[str, Any], bindings: Bindings) -> bool:
    checks = [_CHECKS[key](got, value, bindings) for key, value in rule.items() if key in _CHECKS]
    if not all(checks):
        return False
    if "bind" in rule:
        bound = bindings.values.setdefault(rule["bind"], got)
        return bound == got
    return True


def _items(got: Any, wanted: list[Any], bindings: Bindings) -> bool:
    return isinstance(got, list) and all(
        any(matches(item, rule, bindings) for item in got) for rule in wanted
    )


def _distinct(got: Any, key: str, bindings: Bindings) -> bool:
    values = [item.get(key) for item in got] if isinstance(got, list) else []
    return len(set(map(repr, values))) == len(values)


_CHECKS: dict[str, Callable[[Any, Any, Bindings], bool]] = {
    "pattern": lambda got, value, b: isinstance(got, str) and re.search(value, got) is not None,
    "one_of": lambda got, value, b: any(matches(got, option, b) for option in value),
    "not": lambda got, value, b: not matches(got, value, b),
    "at_least": lambda got, value, b: isinstance(got, int | float) and got >= value,
    "length": lambda got, value, b: hasattr(got, "__len__") and len(got) == value,
    "contains_items": _items,
    "none_match": lambda got, value, b: (
        isinstance(got, list) and not any(matches(item, value, b) for item in got)
    ),
    "distinct_by": _distinct,
    "var": lambda got, value, b: value in b.values and b.values[value] == got,
    "not_var": lambda got, value, b: value in b.values and b.values[value] != got,
    "id_of": lambda got, value, b: got == b.id_of(value),
    "starts_with": lambda got, value, b: isinstance(got, str) and got.startswith(value),
    "contains": lambda got, value, b: isinstance(got, str) and all(fact in got for fact in _listed(value)),
    "contains_any": lambda got, value, b: (
        isinstance(got, str) and any(fact in got for fact in _listed(value))
    ),
    "absent": lambda got, value, b: isinstance(got, str) and not any(fact in got for fact in _listed(value)),
    "equals_json": lambda got, value, b: isinstance(got, str) and _json(got) == value,
}


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def _listed(value: Any) -> list[str]:
    return list(value) if isinstance(value, list) else [value]
