"""What a view over runs is, and how the views are installed on a reading connection.

Rules:
- A view is its name, what one row is, its columns (each with its one-line meaning, in the order
  its SELECT gives them), the store tables it reads, and its SELECT rendered in a backend's spelling.
- The views are TEMP views of the reading connection: they need no write to the store (a reader
  opens it read-only, SQLite's `mode=ro`; a TEMP view lives in the connection's own temporary
  schema), and they shadow the store's own `runs` and `studies` tables for that connection alone.
- A view whose store tables are missing (a store that never ran a study has no `studies`) is
  installed empty, with its documented columns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gg.record.view_spelling import ViewSpelling


@dataclass(frozen=True)
class Column:
    name: str
    meaning: str


@dataclass(frozen=True)
class View:
    """One view: `row` says what one row is; `select` renders its SELECT for a dialect."""

    name: str
    row: str
    columns: tuple[Column, ...]
    reads: tuple[str, ...]  # the store tables it reads
    select: Callable[[ViewSpelling], str]

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


def columns(*pairs: tuple[str, str]) -> tuple[Column, ...]:
    """Columns from (name, meaning) pairs, in order."""
    return tuple(Column(name, meaning) for name, meaning in pairs)


def statements(views: Iterable[View], d: ViewSpelling, tables: Sequence[str]) -> list[str]:
    """The statements installing every view on a connection to a store holding `tables`; a view
    whose tables are missing is installed empty, with its columns."""
    present = set(tables)
    out: list[str] = []
    for view in views:
        if present.issuperset(view.reads):
            out.append(d.view(view.name, view.select(d)))
        else:
            nulls = ", ".join(f"NULL AS {name}" for name in view.column_names)
            out.append(d.view(view.name, f"SELECT {nulls} WHERE 1 = 0"))
    return out
