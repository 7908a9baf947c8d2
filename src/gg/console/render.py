"""The console's templates: one Jinja environment, autoescaping everything, and its filters.

Every text a model or a program wrote reaches a page only through this environment, escaped;
no template marks such text safe. Figures read the way `gg show` prints them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from gg.console.charts import dependency_graph
from gg.telemetry.clock import parse_timestamp
from gg.telemetry.terminal import format_duration

TEMPLATES = Path(__file__).parent / "templates"


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    filters: dict[str, Callable[..., Any]] = {
        "duration": format_duration,
        "count": count,
        "amount": amount,
        "money": money,
        "size": size,
        "when": when,
        "plural": plural,
        "task_graph": dependency_graph,
    }
    env.filters.update(filters)

    return env


def count(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}"


def amount(value: float | None) -> str:
    """A median or a percentile: whole when it is, else to one decimal (`2`, `1.5`)."""
    if value is None:
        return "—"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def money(value: float | None) -> str:
    if value is None:
        return "—"
    return f"${value:,.4f}" if value < 100 else f"${value:,.2f}"


def size(value: float | None, unit: str = "") -> str:
    """`12.3k tokens`, `940 chars`."""
    if value is None:
        return "—"
    text = f"{value / 1000:.1f}k" if value >= 10_000 else f"{value:,.0f}"
    return f"{text} {unit}".strip()


def when(timestamp: str | None) -> str:
    moment = parse_timestamp(timestamp or "")
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S") if moment else (timestamp or "—")


def plural(number: int, word: str, many: str | None = None) -> str:
    return f"{number:,} {word if number == 1 else (many or word + 's')}"
