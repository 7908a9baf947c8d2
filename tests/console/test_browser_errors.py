"""An unknown run id and a damaged store are clear pages in the browser, never a traceback."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from playwright.sync_api import Page, expect

from console.browser import served
from console.conftest import Recorded


def test_an_unknown_run_id_is_a_page_saying_so_with_the_way_back(crew_run: Recorded, page: Page):
    with served(crew_run.store) as base:
        response = page.goto(f"{base}/runs/run-20990101-000000-none/instances")
        assert response is not None and response.status == 404
        expect(page.locator("main")).to_contain_text("No such run")
        assert "Traceback" not in page.content()
        page.locator("a", has_text="Back to every run").click()
        expect(page.locator("a.run-link")).to_have_count(1)


def test_a_store_with_damaged_events_shows_the_rest_and_says_how_many_it_could_not_read(
    crew_run: Recorded, tmp_path: Path, page: Page
):
    store = tmp_path / "runs.db"
    shutil.copy(crew_run.store, store)
    with sqlite3.connect(store) as db:
        db.execute(
            "UPDATE events SET json = '{not json' WHERE seq IN "
            "(SELECT seq FROM events WHERE type = 'model_reply' ORDER BY seq LIMIT 2)"
        )
    with served(store) as base:
        for tab in ("instances", "modules", "agents", "programs"):
            response = page.goto(f"{base}/runs/{crew_run.run_id}/{tab}")
            assert response is not None and response.status == 200, tab
            expect(page.locator(".run-head .damaged")).to_contain_text(
                "2 stored events of this run could not be read"
            )
            assert "Traceback" not in page.content()


def test_a_file_that_is_no_store_is_a_page_naming_what_is_wrong(tmp_path: Path, page: Page):
    store = tmp_path / "runs.db"
    store.write_bytes(b"not a database, only words " * 200)
    with served(store) as base:
        response = page.goto(f"{base}/runs/anything/instances")
        assert response is not None and response.status == 503
        expect(page.locator("main")).to_contain_text("it is not an SQLite database")
        assert "Traceback" not in page.content()
