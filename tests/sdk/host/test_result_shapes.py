"""A host function's result type is what the model reads about its answer: `dict[str, Any]` says
nothing of its keys, while a result declared as a TypedDict, a dataclass or a pydantic model is
declared with every field, and each field's doc, on every arm (the function's docs page, `gg.d.ts`,
the Python stubs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

import pydantic
import pytest

import gg
from gg.config.catalogue import Role
from gg.sandbox.deno.declarations import declarations
from gg.sandbox.languages import LANGUAGES
from gg.sandbox.monty.spelling import stubs
from gg.sdk.catalogue import default_registry
from gg.sdk.docs.surface import build_surface
from gg.sdk.host.operations import host_entries
from gg.sdk.registry import Registry


class Count(TypedDict):
    """What a count found."""

    sku: Annotated[str, "the item's SKU"]
    total: int


@dataclass
class Shelf:
    """Where an item sits."""

    row: int = field(metadata={"doc": "the row, from 1"})
    column: int = 0


class Order(pydantic.BaseModel):
    """An order being packed."""

    id: str = pydantic.Field(description="the order's id")
    shelves: list[Shelf]


stock = gg.family("stock", doc="the shop's stock.")


@stock.operation
def loose(sku: str) -> dict[str, Any]:
    """A count, with no shape declared."""
    return {}


@stock.operation
def count(sku: str) -> Count:
    """A count, as a TypedDict."""
    return {"sku": sku, "total": 0}


@stock.operation
def shelf(sku: str) -> Shelf | None:
    """Where an item sits, as a dataclass."""
    return None


@stock.operation
def order(id: str) -> Order:
    """An order, as a pydantic model."""
    return Order(id=id, shelves=[])


GRANTED = frozenset({"responses-as-code", "host-functions", "host-functions:stock"})
TS_RECORDS = {
    "count": ["interface Count {", "  sku: string; // the item's SKU", "  total: number;"],
    "shelf": ["interface Shelf {", "  row: number; // the row, from 1", "  column?: number;"],
    "order": [
        "interface Order {",
        "  id: string; // the order's id",
        "  shelves: Shelf[];",
        "interface Shelf {",
        "  row: number; // the row, from 1",
    ],
}
PY_RECORDS = {
    "count": ["class Count(TypedDict):", "    sku: str  # the item's SKU", "    total: int"],
    "shelf": ["class Shelf(TypedDict):", "    row: int  # the row, from 1", "    column: NotRequired[int]"],
    "order": [
        "class Order(TypedDict):",
        "    id: str  # the order's id",
        "    shelves: list[Shelf]",
        "class Shelf(TypedDict):",
    ],
}


def registry() -> Registry:
    entries = host_entries([(stock.declaration, lambda declaration: lambda scope, args: None)])
    return default_registry(entries.operations, entries.types, dict(entries.briefs))


@pytest.mark.parametrize("language", ["javascript", "typescript", "python", "python-typed"])
def test_a_record_result_is_declared_with_its_fields_on_the_functions_page(language: str) -> None:
    surface = build_surface(registry(), LANGUAGES[language], Role.STANDARD, GRANTED)
    pages = {entry.key: entry.body for entry in surface.docs}
    python = language.startswith("python")
    records = PY_RECORDS if python else TS_RECORDS
    for function, lines in records.items():
        page = pages[f"gg.stock.{function}"].splitlines()
        assert all(line in page for line in lines), (function, page)
    loose = pages["gg.stock.loose"]
    assert ("Returns `dict[str, Any]`." if python else "Returns `Record<string, unknown>`.") in loose
    assert "interface" not in loose and "TypedDict" not in loose


def test_the_checked_arms_are_checked_against_the_same_fields() -> None:
    typed = declarations(registry())
    assert "  export function count(sku: string): Count;" in typed
    assert "    sku: string; // the item's SKU" in typed and "    row: number; // the row, from 1" in typed
    stub = stubs(registry())["gg.stock"]
    assert "def count(sku: str) -> Count: ..." in stub
    assert "class Order(TypedDict):\n    id: str\n    shelves: list[Shelf]\n" in stub
