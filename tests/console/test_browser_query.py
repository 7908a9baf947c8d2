"""The Query page in real Chromium: a query typed into the SQL box answers as a table, a column
is drawn as bars, the page's URL carries the query so that opening it again shows the same; a
write typed into the box is refused and the store is left as it was; nothing breaks the page's
Content-Security-Policy."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import ConsoleMessage, Page, expect

from console.browser import served

CALLS = "SELECT operation, COUNT(*) AS calls FROM api_calls GROUP BY operation ORDER BY operation"


def _events(store: Path) -> int:
    with sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def _watch_csp(page: Page) -> list[str]:
    refused: list[str] = []

    def seen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    page.on("console", seen)
    return refused


def test_a_query_typed_in_answers_as_a_table_and_a_chart_its_url_shares(example_store: Path, page: Page):
    refused = _watch_csp(page)
    with served(example_store) as base:
        page.goto(base + "/")
        page.locator("nav.top-nav a", has_text="Query").click()
        expect(page.locator("h1")).to_have_text("Query")
        page.locator("textarea#sql").fill(CALLS)
        page.locator("button", has_text="Run").click()
        rows = page.locator("table.answer tbody tr")
        expect(rows).to_have_count(9)
        expect(rows.filter(has_text="files.read_file")).to_contain_text("17")
        expect(page.locator(".answer-foot")).to_have_text("9 rows")
        page.locator("select[name=chart]").select_option("calls")
        page.locator("button", has_text="Run").click()
        expect(page.locator("figure.chart g.bar rect")).to_have_count(9)
        expect(page.locator("figure.chart figcaption")).to_contain_text("calls by operation")
        shared = page.url
        assert parse_qs(urlparse(shared).query) == {
            "sql": [CALLS],
            "chart": ["calls"],
            "label": ["operation"],
        }
        again = page.context.new_page()
        again.goto(shared)
        expect(again.locator("table.answer tbody tr")).to_have_count(9)
        expect(again.locator("figure.chart g.bar rect")).to_have_count(9)
        expect(again.locator("textarea#sql")).to_have_value(CALLS)
    assert refused == []


def test_a_write_typed_in_is_refused_and_the_store_is_left_as_it_was(example_store: Path, page: Page):
    before = _events(example_store)
    with served(example_store) as base:
        page.goto(base + "/query")
        page.locator("textarea#sql").fill("DELETE FROM main.events")
        with page.expect_response(lambda r: "/query?" in r.url) as answered:
            page.locator("button", has_text="Run").click()
        assert answered.value.status == 400
        expect(page.locator(".query-error")).to_contain_text(
            "gg query only reads, and this query would delete (events)"
        )
        expect(page.locator("details.views")).to_contain_text("api_calls")
        assert page.locator("table.answer").count() == 0
        assert "Traceback" not in page.content()
    assert _events(example_store) == before


def test_a_bad_query_names_sqlites_error_beside_the_views_columns(example_store: Path, page: Page):
    with served(example_store) as base:
        response = page.goto(base + "/query?sql=SELECT+nope+FROM+runs")
        assert response is not None and response.status == 400
        expect(page.locator(".query-error")).to_contain_text("no such column: nope")
        expect(page.locator("table[aria-label='runs columns']")).to_contain_text("the limit `maxTurns`")
