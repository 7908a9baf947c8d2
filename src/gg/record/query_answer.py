"""What a query of the run store answers, on either backend: its rows (`QueryAnswer`), read under
its row, time and size bounds (`bounded_answer`), or the refusal that stopped it (`QueryError`:
`NotARead`, `BadQuery`, `PastTimeBound`, `AnswerTooLarge`). The queries themselves:
`gg.record.query` (SQLite) and `gg.record.postgres_query`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MAX_ANSWER_BYTES = 64 * 1024 * 1024  # the texts and bytes of one answer, all its values together


class QueryError(Exception):
    """A query gg does not answer; the message says why."""


class NotARead(QueryError):
    """The query would do more than read (write, attach, set a PRAGMA, ...), or is not one
    statement returning rows."""


class BadQuery(QueryError):
    """SQLite cannot run the query: its own words."""


class PastTimeBound(QueryError):
    """The query ran past its time bound and was stopped."""


class AnswerTooLarge(QueryError):
    """The answer's values hold more than `MAX_ANSWER_BYTES`."""


TOO_LARGE = (
    f"the answer holds more than {MAX_ANSWER_BYTES // (1024 * 1024)} MiB of text and bytes;"
    " select fewer rows, or less of each value (substr, length)"
)


def past_time_bound(seconds: float) -> PastTimeBound:
    return PastTimeBound(f"the query ran past its time bound ({seconds:g} s) and was stopped")


REWRITES_THE_STORE = "rewrite the store (VACUUM)"
"""What a VACUUM would do, on either backend, in the words of a refusal."""


def copies_the_store(file: str) -> str:
    """What a VACUUM INTO `file` would do, in the words of a refusal."""
    return f"write a copy of the store to a file ({file})"


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


def bounded_answer(
    columns: tuple[str, ...],
    rows: Iterable[Sequence[Any]],
    limit: int,
    past: Callable[[], bool],
    seconds: float,
) -> QueryAnswer:
    """The first `limit` of `rows`, read one at a time: `truncated` when there was another,
    `PastTimeBound` once `past()` says the time is spent, `AnswerTooLarge` past the size bound."""
    kept: list[tuple[Any, ...]] = []
    size = 0
    for row in rows:
        if len(kept) == limit:
            return QueryAnswer(columns, kept, limit, True)
        size += sum(len(value) for value in row if isinstance(value, str | bytes))
        if size > MAX_ANSWER_BYTES:
            raise AnswerTooLarge(TOO_LARGE)
        if past():
            raise past_time_bound(seconds)
        kept.append(tuple(row))
    return QueryAnswer(columns, kept, limit, False)
