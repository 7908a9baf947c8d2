"""The shop's stock, as host functions a program calls like gg's own modules.

Importable as `shop:inventory`, which is how `gg.json` names it (run gg from this folder, or put it
on PYTHONPATH); `run.py` hands the same family to `gg.run`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, TypedDict

import gg

Warehouse = Literal["north", "south"]

STOCK: dict[str, dict[Warehouse, int]] = {
    "A-1": {"north": 12, "south": 3},
    "B-7": {"north": 0, "south": 5},
    "C-2": {"north": 1, "south": 0},
}


class Item(TypedDict):
    """One item the shop stocks."""

    sku: str
    total: int


@dataclass(frozen=True)
class Reservation:
    """Units set aside for an order."""

    sku: str
    reserved: int
    short: int


inventory = gg.family("inventory", doc="the shop's stock: count it, list it, reserve it.")


@inventory.operation(errors={"not-found": "no item has this SKU"})
def count(sku: Annotated[str, "the item's SKU, such as A-1"], *, warehouse: Warehouse | None = None) -> int:
    """How many units of an item are in stock, in one warehouse or in all."""
    if sku not in STOCK:
        raise gg.ApiError("not-found", f"no item has the SKU {sku!r}")
    places = STOCK[sku]
    return places[warehouse] if warehouse else sum(places.values())


@inventory.operation
def items(prefix: str = "") -> list[Item]:
    """Every item whose SKU starts with `prefix`, with its units in stock."""
    return [{"sku": sku, "total": sum(places.values())} for sku, places in STOCK.items() if sku.startswith(prefix)]


@inventory.operation(errors={"not-found": "no item has this SKU"})
async def reserve(sku: str, quantity: int) -> Reservation:
    """Set aside up to `quantity` units of an item, north first; says how many were short."""
    if sku not in STOCK:
        raise gg.ApiError("not-found", f"no item has the SKU {sku!r}")
    wanted = quantity
    for warehouse in ("north", "south"):
        taken = min(STOCK[sku][warehouse], wanted)
        STOCK[sku][warehouse] -= taken
        wanted -= taken
    return Reservation(sku, quantity - wanted, wanted)
