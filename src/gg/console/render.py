"""The console's templates: one Jinja environment, autoescaping everything, and its filters.

Every text a model or a program wrote reaches a page only through this environment, escaped;
no template marks such text safe. Every value a template prints (text, attribute, title, a
macro's or a filter's output) passes `shown` first: each control and bidi character is shown as
`gg show` shows it (`gg.wire.printable`), so no text can reorder or hide what the reader sees.
Figures read the way `gg show` prints them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from gg.console.charts import dependency_graph
from gg.telemetry.clock import parse_timestamp
from gg.terminal.glyphs import format_duration
from gg.wire import lines, printable

TEMPLATES = Path(__file__).parent / "templates"


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=shown,
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
        "lines": lines,
    }
    env.filters.update(filters)

    return env


def shown(value: Any) -> Any:
    """What a template prints for `value`: its text with every control and bidi character shown
    as `gg show` shows it (newline and tab kept). Markup stays markup: picturing adds no `<`, `&`
    or quote, so what was escaped stays escaped."""
    if value is None or isinstance(value, int | float):
        return value
    if isinstance(value, Markup):
        return Markup(printable(str(value)))
    return printable(str(value))


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
