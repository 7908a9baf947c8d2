"""A host family for the tests, declaring every type a host function may take or give: scalars,
`None`, lists, string-keyed dicts, a TypedDict, a dataclass, a pydantic model, `Literal`, unions,
keyword-only options, an `async def`, a raising function and one that answers outside its
declaration. Importable as `warehouse:warehouse` (the tests folder is on the path).

Each function reports the Python types it received, so a test can see what the host decoded."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired

import pydantic
from typing_extensions import TypedDict

import gg


class Line(TypedDict):
    """One order line."""

    sku: str
    quantity: int
    note: NotRequired[str | None]


@dataclass
class Box:
    """A packed box."""

    label: str
    weight: float
    tags: list[str]


class Shipment(pydantic.BaseModel):
    """Boxes leaving together."""

    id: str
    boxes: list[Box]
    priority: Literal["low", "high"] = "low"


warehouse = gg.family("warehouse", doc="the warehouse's boxes, lines and shipments.")
CALLS: list[str] = []


@warehouse.operation
def weigh(box: Box, *, extra: Annotated[float, "added to the box's weight"] = 0.0) -> float:
    """The weight of a box, plus `extra`."""
    CALLS.append(f"weigh {type(box).__name__} {type(box.weight).__name__} {type(extra).__name__}")
    return box.weight + extra


@warehouse.operation
def ship(shipment: Shipment) -> Shipment:
    """The shipment, made high priority, its boxes in label order."""
    CALLS.append(f"ship {type(shipment).__name__} {type(shipment.boxes[0]).__name__}")
    boxes = sorted(shipment.boxes, key=lambda box: box.label)
    return Shipment(id=shipment.id, boxes=boxes, priority="high")


@warehouse.operation
def lines(skus: list[str], *, quantity: int = 1, note: str | None = None) -> list[Line]:
    """One line per SKU, each of `quantity`."""
    CALLS.append(f"lines {type(skus).__name__} {type(quantity).__name__}")
    return [
        {"sku": sku, "quantity": quantity, "note": note} if note else {"sku": sku, "quantity": quantity}
        for sku in skus
    ]


@warehouse.operation
def total(line: Line, stock: dict[str, int]) -> dict[str, float]:
    """How much of the stock the line leaves, per SKU, as a fraction of what there was."""
    CALLS.append(f"total {type(line).__name__} {type(stock).__name__}")
    return {
        sku: (count - (line["quantity"] if sku == line["sku"] else 0)) / count for sku, count in stock.items()
    }


@warehouse.operation
def choose(mode: Literal["fast", "slow"], either: int | str | None, flag: bool = False) -> str:
    """Which of `either` and `mode` wins."""
    CALLS.append(f"choose {type(either).__name__} {type(flag).__name__}")
    return f"{mode}:{either!r}:{flag}"


@warehouse.operation
def note(text: str) -> None:
    """Keep a note; returns nothing."""
    CALLS.append(f"note {text}")


@warehouse.operation
def anything(value: Any) -> Any:
    """Hand any JSON value back."""
    return value


@warehouse.operation(errors={"not-found": "no box has that label"})
def find(label: str) -> Box:
    """The box labelled `label`; `missing` raises gg.ApiError, `broken` a plain exception."""
    if label == "missing":
        raise gg.ApiError("not-found", f"no box is labelled {label}")
    if label == "broken":
        raise KeyError(label)
    return Box(label, 1.5, ["found"])


@warehouse.operation
async def count_later(sku: str, delay: float = 0.01) -> int:
    """Count a SKU after waiting `delay` seconds on the host's own event loop."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(delay)
    CALLS.append(f"count_later {type(loop).__name__}")
    return len(sku)


@warehouse.operation
def promise_broken() -> int:
    """Declared to give a whole number; gives a string."""
    return "seven"  # type: ignore[return-value]
