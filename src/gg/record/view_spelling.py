"""How the views over runs spell what SQLite and PostgreSQL write differently, once per backend.

The views over runs (`gg.record.views`) are written in standard SQL; every construct SQLite and
PostgreSQL spell differently goes through a `ViewSpelling`, which renders it for one backend (SQLite /
PostgreSQL):

- a store table: `main.events` / `public.events`;
- a JSON field as text: `json_extract(c, '$.a.b')` / `(c::jsonb #>> '{a,b}')`; as a number, that
  text cast (`REAL` / `DOUBLE PRECISION`, `INTEGER` / `BIGINT`); as a flag (1, 0 or NULL), SQLite's
  own 1 and 0 / a `CASE` over `'true'` and `'false'`;
- a JSON array's elements: `json_each(c, '$.a') AS x` (its place `x.key`, from 0) /
  `jsonb_array_elements(c::jsonb -> 'a') WITH ORDINALITY AS x (value, key)` (from 1);
- where a text occurs: `instr(t, s)` / `strpos(t, s)`;
- whole milliseconds between two ISO 8601 timestamps: a `julianday` difference / `EXTRACT(EPOCH ...)`;
- a view of this connection alone: `CREATE TEMP VIEW` / `CREATE OR REPLACE TEMP VIEW`.

Rules:
- Flags (a JSON `true`/`false`) read as the integers 1 and 0 on both backends, so `SUM(ok)` counts.
- A JSON path is a sequence of plain keys (letters, digits, `_`); any other key is refused, so no
  rendered spelling can carry text of a query's own.
- The views are TEMP views of the reading connection: they shadow the store's tables of the same
  name (`runs`) for that connection alone (SQLite searches `temp` first, PostgreSQL `pg_temp`), and
  read those tables by their qualified name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gg.telemetry.location import Backend

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class ViewSpelling:
    """How one backend spells the constructs the views use (see the module's table)."""

    backend: Backend
    tables: str  # the schema the store's own tables live in

    def table(self, name: str) -> str:
        return f"{self.tables}.{_key(name)}"

    def text(self, column: str, *path: str) -> str:
        """The JSON value at `path` in `column`, as text (a number or flag as its text)."""
        keys = [_key(k) for k in path]
        if self.backend is Backend.SQLITE:
            return f"json_extract({column}, '$.{'.'.join(keys)}')"
        return f"({column}::jsonb #>> '{{{','.join(keys)}}}')"

    def integer(self, column: str, *path: str) -> str:
        return f"CAST({self.text(column, *path)} AS {self._integer})"

    def real(self, column: str, *path: str) -> str:
        return f"CAST({self.text(column, *path)} AS {self._real})"

    def flag(self, column: str, *path: str) -> str:
        """A JSON boolean as 1 or 0 (NULL when absent)."""
        if self.backend is Backend.SQLITE:
            return f"CAST({self.text(column, *path)} AS INTEGER)"
        return f"CASE {self.text(column, *path)} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END"

    def elements(self, column: str, key: str, alias: str) -> str:
        """A FROM item: one row per element of the JSON array at `key` in `column`; the element is
        `<alias>.value`, its place `position(alias)`."""
        if self.backend is Backend.SQLITE:
            return f"json_each({column}, '$.{_key(key)}') AS {_key(alias)}"
        array = f"{column}::jsonb -> '{_key(key)}'"
        return f"jsonb_array_elements({array}) WITH ORDINALITY AS {_key(alias)} (value, key)"

    def position(self, alias: str) -> str:
        """The place (from 0) of an element read by `elements`."""
        return f"{_key(alias)}.key" if self.backend is Backend.SQLITE else f"({_key(alias)}.key - 1)"

    def find(self, text: str, part: str) -> str:
        """Where `part` first occurs in `text`, from 1; 0 when it does not."""
        function = "instr" if self.backend is Backend.SQLITE else "strpos"
        return f"{function}({text}, {part})"

    def millis_between(self, start: str, end: str) -> str:
        """Whole milliseconds from one ISO 8601 timestamp (text) to another (the record's timestamps
        are to the millisecond; `julianday` is exact to a few microseconds, so rounded)."""
        if self.backend is Backend.SQLITE:
            return f"ROUND((julianday({end}) - julianday({start})) * 86400000.0)"
        return (
            f"ROUND(EXTRACT(EPOCH FROM (CAST({end} AS TIMESTAMPTZ) - CAST({start} AS TIMESTAMPTZ))) * 1000)"
        )

    def view(self, name: str, select: str) -> str:
        """The statement making `name` a view of this connection alone."""
        verb = "CREATE TEMP VIEW" if self.backend is Backend.SQLITE else "CREATE OR REPLACE TEMP VIEW"
        return f"{verb} {_key(name)} AS {select}"

    @property
    def _integer(self) -> str:
        return "INTEGER" if self.backend is Backend.SQLITE else "BIGINT"

    @property
    def _real(self) -> str:
        return "REAL" if self.backend is Backend.SQLITE else "DOUBLE PRECISION"


SQLITE_SPELLING = ViewSpelling(Backend.SQLITE, "main")
POSTGRESQL_SPELLING = ViewSpelling(Backend.POSTGRESQL, "public")


def spelling_of(backend: Backend) -> ViewSpelling:
    """The views' spelling on the store's database `backend`."""
    return SQLITE_SPELLING if backend is Backend.SQLITE else POSTGRESQL_SPELLING


def _key(name: str) -> str:
    if not _KEY.match(name):
        raise ValueError(f"not a plain SQL name or JSON key: {name!r}")
    return name
