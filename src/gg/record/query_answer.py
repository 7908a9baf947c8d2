"""What a query of the run store answers, on either backend: its rows (`QueryAnswer`), or the
refusal that stopped it (`QueryError`: `NotARead`, `BadQuery`, `PastTimeBound`). The queries
themselves: `gg.record.query` (SQLite) and `gg.record.postgres_query`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class QueryError(Exception):
    """A query gg does not answer; the message says why."""


class NotARead(QueryError):
    """The query would do more than read (write, attach, set a PRAGMA, ...), or is not one
    statement returning rows."""


class BadQuery(QueryError):
    """SQLite cannot run the query: its own words."""


class PastTimeBound(QueryError):
    """The query ran past its time bound and was stopped."""


def only_reads(what: str) -> NotARead:
    """The refusal of a query that would do `what` (a write, a PRAGMA, ...) rather than read."""
    return NotARead(
        f"refused: gg query only reads, and this query would {what};"
        " write one SELECT (or WITH ... SELECT) over the views"
    )


@dataclass(frozen=True)
class QueryAnswer:
    """A query's rows, at most `limit`; `truncated` when the query had more."""

    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    limit: int
    truncated: bool
