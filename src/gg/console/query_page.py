"""The Query page's model: the SQL the URL carries, its answer or why there is none, and a bar
chart of a column the reader chose.

Rules:
- The page is its parameters: `sql` the query, `chart` the column drawn, `label` the column
  naming each bar (the first other column unless told); a reader shares a query by its URL
  (`gg.console.routes.query` says when a query is too long for one).
- A query runs as `gg query` runs it (`gg.record.query`: read-only, one read, the row and time
  bounds), on an SQLite or a PostgreSQL store; a refusal or an error is shown in words beside
  the views' columns, never a traceback.
- A bar is drawn for each row whose chosen column holds a number; a column holding none draws no
  chart, and the page says so. Bars past `MAX_BARS` are left out, and the page says how many.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gg.console.charts import BarChart, stacked
from gg.record.query import run_query
from gg.record.query_answer import QueryAnswer, QueryError
from gg.record.query_bounds import DEFAULT_ROWS, DEFAULT_SECONDS
from gg.record.readonly import NotARunStore
from gg.record.sql_view import View
from gg.record.views import VIEWS
from gg.telemetry.location import StoreLocation
from gg.telemetry.store import RunStoreError

MAX_BARS = 200
EXAMPLE = "SELECT arm, COUNT(*) AS programs, SUM(1 - ok) AS failed FROM programs GROUP BY arm"


@dataclass(frozen=True)
class Plot:
    """The chart of one column: its bars, or why there are none."""

    column: str
    label: str
    chart: BarChart | None
    left_out: int = 0  # rows past MAX_BARS
    reason: str | None = None


@dataclass(frozen=True)
class QueryPage:
    sql: str
    answer: QueryAnswer | None
    error: str | None
    plot: Plot | None
    views: Sequence[View]
    numeric: tuple[str, ...]  # the answer's columns a chart can draw


def query_page(store: Path | StoreLocation, params: Mapping[str, str]) -> QueryPage:
    """The page the URL's parameters ask for, over the store at `store`."""
    sql = params.get("sql", "").strip()
    if not sql:
        return QueryPage(EXAMPLE, None, None, None, VIEWS, ())
    try:
        answer = run_query(store, sql, rows=DEFAULT_ROWS, seconds=DEFAULT_SECONDS)
    except FileNotFoundError:
        shown = store.shown if isinstance(store, StoreLocation) else store
        return QueryPage(sql, None, f"no run store at {shown} yet", None, VIEWS, ())
    except (QueryError, NotARunStore, RunStoreError) as refused:
        return QueryPage(sql, None, str(refused), None, VIEWS, ())
    numeric = numeric_columns(answer)
    chosen = params.get("chart", "")
    plot = plotted(answer, chosen, params.get("label", "")) if chosen else None
    return QueryPage(sql, answer, None, plot, VIEWS, numeric)


def numeric_columns(answer: QueryAnswer) -> tuple[str, ...]:
    """The columns holding a number in some row."""
    return tuple(
        name
        for place, name in enumerate(answer.columns)
        if any(_number(row[place]) is not None for row in answer.rows)
    )


def plotted(answer: QueryAnswer, column: str, label: str) -> Plot:
    """Bars of `column`, one per row that holds a number in it, named by `label`'s values."""
    if column not in answer.columns:
        return Plot(column, label, None, reason=f"the answer has no column {column}")
    value_at = answer.columns.index(column)
    others = [name for name in answer.columns if name != column]
    label = label if label in answer.columns else (others[0] if others else column)
    label_at = answer.columns.index(label)
    bars = [(str(row[label_at]), n) for row in answer.rows if (n := _number(row[value_at])) is not None]
    if not bars:
        return Plot(column, label, None, reason=f"{column} holds no number to draw")
    drawn = bars[:MAX_BARS]
    chart = stacked([name for name, _ in drawn], [{column: max(n, 0.0)} for _, n in drawn], [column], column)
    reason = None if chart is not None else f"{column} holds no value above 0 to draw"
    return Plot(column, label, chart, len(bars) - len(drawn), reason)


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
