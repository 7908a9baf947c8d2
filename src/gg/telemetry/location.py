"""Where a run store is: the one reading of a `--store` value, `gg.run(store=…)`,
`gg.open_store(…)` and `GG_STORE`, for every command that reads or writes runs.

Rules:
- Accepted: a path (a `runs.db` file, a folder holding `.gg/runs.db`, or `.gg/` itself), a
  `sqlite:///PATH` or `file://PATH` URL of one (`sqlite:///runs.db` is relative,
  `sqlite:////abs/runs.db` absolute), or a `postgresql://user:password@host:port/database` URL
  (`postgres://` too). Anything else with a `scheme://` is `BadStoreUrl`, naming what is accepted;
  so is a PostgreSQL URL whose user or password holds an `@` not written `%40` (libpq would read
  the password's tail as the host, and quote it back).
- Nothing given: `GG_STORE` when set (and not empty), else `<base>/.gg/runs.db`.
- A PostgreSQL store keeps its runs' local copies (`events.ndjson`) under `<base>/.gg/runs/`,
  as an SQLite store keeps them beside its file: `path` is that local store file's place, and
  `runs_beside(path)` their folder, for both.
- A location is shown (`shown`) without its password: a URL's password is never printed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from gg.telemetry.layout import located_store, store_path
from gg.wire import escaped

GG_STORE = "GG_STORE"
SQLITE_SCHEMES = ("sqlite:///", "file://")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
ACCEPTED = "a path, sqlite:///PATH, or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"


class Backend(StrEnum):
    """The database a run store lives in."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


class BadStoreUrl(ValueError):
    """A store location gg cannot read; the message names it (without a password) and what is
    accepted."""


@dataclass(frozen=True)
class StoreLocation:
    """A run store: its backend, its file (SQLite) or the local file its runs' copies lie beside
    (PostgreSQL), and the server's URL (PostgreSQL, password included: never shown)."""

    backend: Backend
    path: Path
    url: str | None = None

    @property
    def shown(self) -> str:
        """The location as it may be printed: the path escaped, or the URL without its password."""
        return escaped(str(self.path) if self.url is None else without_password(self.url))


def store_location(
    given: str | Path | None, *, base: Path, environ: Mapping[str, str] | None = None
) -> StoreLocation:
    """The store `given` names, else `GG_STORE`'s, else `<base>/.gg/runs.db` (see the module
    rules); `BadStoreUrl` for a location that is none of those."""
    env = os.environ if environ is None else environ
    if given is None or given == "":
        given = env.get(GG_STORE) or None
    if given is None:
        return StoreLocation(Backend.SQLITE, store_path(base))
    return parse_store_url(given, base=base)


def parse_store_url(given: str | Path, *, base: Path) -> StoreLocation:
    """One store location read from a path or URL (see the module rules)."""
    if isinstance(given, Path):
        return StoreLocation(Backend.SQLITE, located_store(given))
    text = given.strip()
    for scheme in POSTGRES_SCHEMES:
        if text.startswith(scheme):
            return StoreLocation(Backend.POSTGRESQL, store_path(base), _checked_postgres(text))
    for scheme in SQLITE_SCHEMES:
        if text.startswith(scheme):
            path = unquote(text.removeprefix(scheme))
            if path.strip("/") == "":
                raise BadStoreUrl(f"{escaped(text)} names no file: give {ACCEPTED}")
            return StoreLocation(Backend.SQLITE, located_store(Path(path)))
    if "://" in text:
        raise BadStoreUrl(f"{escaped(without_password(text))} is no run store gg reads: give {ACCEPTED}")
    return StoreLocation(Backend.SQLITE, located_store(Path(text)))


def without_password(url: str) -> str:
    """`url` with any password in it (`user:password@`, or libpq's `?password=`) replaced by `***`."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("@", 1)[-1] if "@" in url else url
    query = _PASSWORD_PARAMETER.sub(r"\1***", parts.query)
    if password is not None:
        user = parts.username or ""
        parts = parts._replace(netloc=f"{user}:***@{parts.netloc.rsplit('@', 1)[1]}")
    return urlunsplit(parts._replace(query=query))


_PASSWORD_PARAMETER = re.compile(r"((?:^|&)password=)[^&]*", re.IGNORECASE)


def _checked_postgres(url: str) -> str:
    """A PostgreSQL URL with a host and a database; `BadStoreUrl` naming what it lacks."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as bad:
        raise BadStoreUrl(f"{escaped(without_password(url))} is no PostgreSQL URL gg reads ({bad})") from None
    if parts.netloc.count("@") > 1:
        raise BadStoreUrl(
            f"{escaped(without_password(url))} holds an @ in its user or password: write it %40"
        )
    lacks = [
        name
        for name, value in (("a host", parts.hostname), ("a database", parts.path.strip("/")))
        if not value
    ]
    if lacks:
        shown = escaped(without_password(url))
        raise BadStoreUrl(f"{shown} lacks {' and '.join(lacks)}: give {ACCEPTED}")
    del port
    return url
