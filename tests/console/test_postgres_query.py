"""The console's Query page over a PostgreSQL store (the example run copied there by `gg store
copy`): it answers as over SQLite, draws its chart, and refuses a write in words (400), the store
left as it was."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from console.conftest import BothBackends

QUESTION = "SELECT turn, input_tokens FROM turns ORDER BY turn"


def test_the_query_page_answers_from_postgresql_as_from_sqlite(both_backends: BothBackends) -> None:
    on_sqlite, on_postgres = both_backends.sqlite, both_backends.postgres
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
