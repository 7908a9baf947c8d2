"""A query's answer and the views' catalogue for people: `gg query` and `gg schema --store` on the
terminal.

Rules:
- A value is shown as text, never read as markup, its control characters pictured; NULL is shown
  as `NULL`; a text longer than `CELL_CHARS` or of several lines shows its first line, cut, and the
  answer says that `--json` and `--csv` print every value whole.
- An answer cut at its row bound says so under the table, with the bound and how to raise it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from gg.record.query_answer import QueryAnswer
from gg.record.views import View
from gg.terminal.glyphs import first_line, plural
from gg.wire import printable

CELL_CHARS = 60
NULL = "NULL"


def cell(value: object) -> tuple[str, bool]:
    """How a value is shown in a table cell, and whether it was cut (a long text or bytes value is
    cut before it is made printable, so showing it costs the same however long it is)."""
    if value is None:
        return NULL, False
    longer = isinstance(value, str | bytes) and len(value) > 2 * CELL_CHARS
    text = printable(str(value[: 2 * CELL_CHARS] if isinstance(value, str | bytes) else value))
    cut = longer or "\n" in text.strip() or len(text) > CELL_CHARS
    shown = first_line(text, CELL_CHARS) if cut else text
    return shown, longer or shown != text


def render_answer(answer: QueryAnswer, console: Console) -> None:
    """The answer as a table, then what it left out."""
    table = Table(box=None, header_style="bold", pad_edge=False)
    for column in answer.columns:
        table.add_column(printable(column), overflow="fold")
    cut = False
    for row in answer.rows:
        shown = [cell(value) for value in row]
        cut = cut or any(was_cut for _, was_cut in shown)
        table.add_row(*(_shown(text, value) for (text, _), value in zip(shown, row, strict=True)))
    console.print(table)
    notes = [plural(len(answer.rows), "row")]
    if answer.truncated:
        notes.append(f"cut at the row bound ({answer.limit:,}); --limit N raises it")
    if cut:
        notes.append("long texts cut to their first line; --json or --csv print them whole")
    console.print(Text("; ".join(notes), style="dim"))


def _shown(text: str, value: object) -> Text:
    return Text(text, style="dim" if value is None else "")


def render_views(views: Sequence[View], console: Console) -> None:
    """Each view: its name and what a row is, then each column and its meaning."""
    for view in views:
        console.print(Text.assemble((view.name, "bold"), ": ", view.row))
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column(style="cyan", no_wrap=True)
        table.add_column()
        for column in view.columns:
            table.add_row(Text(column.name), Text(column.meaning))
        console.print(table)
        console.print()
