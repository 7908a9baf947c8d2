"""The console's Query page over a PostgreSQL store (the example run copied there by `gg store
copy`): it answers as over SQLite, draws its chart, and refuses a write in words (400), the store
left as it was."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

from click.testing import CliRunner
from starlette.testclient import TestClient

from gg.cli import main
from gg.console.app import create_app
from gg.telemetry.location import parse_store_url
from support.postgres_server import PostgresServer

QUESTION = "SELECT turn, input_tokens FROM turns ORDER BY turn"


def test_the_query_page_answers_from_postgresql_as_from_sqlite(
    example_store: Path, postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.fresh_database()
    copied = CliRunner().invoke(main, ["store", "copy", str(example_store), url])
    assert copied.exit_code == 0, copied.output
    on_sqlite = TestClient(create_app(example_store), base_url="http://127.0.0.1")
    on_postgres = TestClient(create_app(parse_store_url(url, base=tmp_path)), base_url="http://127.0.0.1")
    asked = "/query?" + urlencode({"sql": QUESTION, "chart": "input_tokens"})
    lite, pg = on_sqlite.get(asked), on_postgres.get(asked)
    assert (lite.status_code, pg.status_code) == (200, 200)
    assert _cells(pg.text) == _cells(lite.text) != []
    assert "<svg" in pg.text
    written = on_postgres.get("/query?" + urlencode({"sql": "DELETE FROM public.events"}))
    assert written.status_code == 400
    assert "gg query only reads, and this query would delete" in written.text
    counted = on_postgres.get("/query?" + urlencode({"sql": "SELECT COUNT(*) AS n FROM public.events"}))
    assert counted.status_code == 200
    events = on_sqlite.get("/query?" + urlencode({"sql": "SELECT COUNT(*) AS n FROM main.events"}))
    assert _cells(counted.text) == _cells(events.text)


def _cells(page: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)
