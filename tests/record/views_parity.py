"""The views answer alike on both backends: every view read whole from a SQLite store and from a
PostgreSQL database holding the same runs gives the same rows (in any order; numbers compared as
numbers, so PostgreSQL's `numeric` and SQLite's `REAL` agree).

`assert_views_agree` installs the views on the PostgreSQL connection as TEMP views, spelled by
`gg.record.view_spelling.POSTGRESQL_SPELLING`, over the store's tables in `public`; a test holding
a real server and the runs copied into it calls it."""

from __future__ import annotations

import decimal
from pathlib import Path
from typing import Any

from gg.record.query import run_query
from gg.record.sql_view import statements
from gg.record.view_spelling import POSTGRESQL_SPELLING
from gg.record.views import VIEWS

EVERY_ROW = 1_000_000


def assert_views_agree(sqlite_store: Path, postgres: Any) -> dict[str, int]:
    """Each view's rows on both backends are the same; how many each view holds. `postgres` is a
    psycopg connection in autocommit."""
    tables = [
        name for (name,) in postgres.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    ]
    for statement in statements(VIEWS, POSTGRESQL_SPELLING, tables):
        postgres.execute(statement)
    held: dict[str, int] = {}
    for view in VIEWS:
        sql = f"SELECT * FROM {view.name}"
        lite = _sorted(run_query(sqlite_store, sql, rows=EVERY_ROW, seconds=600).rows)
        cursor = postgres.execute(sql)
        assert tuple(column.name for column in cursor.description) == view.column_names, view.name
        assert _sorted(cursor.fetchall()) == lite, view.name
        held[view.name] = len(lite)
    return held


def _sorted(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    plain = [tuple(_plain(value) for value in row) for row in rows]
    return sorted(plain, key=lambda row: tuple((value is None, str(value)) for value in row))


def _plain(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        value = float(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 6)
    return value
