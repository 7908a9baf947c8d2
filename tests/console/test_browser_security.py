"""Text a model or a program wrote never runs in the browser: it is written into every such
field of a run, and every page of that run is opened in real Chromium."""

from __future__ import annotations

import re
from pathlib import Path

from console.browser import served
from console.scenario import RUN_ID, multi_agent_run
from console.store_writer import write_records

SCRIPT = "<script>window.__pwned = 'script'; alert('script')</script>"
ATTRIBUTE = "\"><img src=x onerror=\"window.__pwned = 'img'; alert('img')\">"
PAYLOAD = f"{SCRIPT} {ATTRIBUTE} '><svg onload=alert('svg')>"
LINK = re.compile(r'href="(/[^"#]*)"')


def every_page(page, base: str, start: str) -> list[str]:
    """Opens every console page reachable from `start` (static files and live streams aside),
    asserting on each that nothing the run wrote became markup or ran."""
    seen: list[str] = []
    todo = [start]
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.append(path)
        page.goto(base + path)
        assert page.evaluate("window.__pwned === undefined"), path
        assert page.locator("img").count() == 0, path
        assert page.locator("script:not([src='/static/live.js'])").count() == 0, path
        assert page.locator("[onerror], [onload]").count() == 0, path
        for found in LINK.findall(page.content()):
            link = found.replace("&amp;", "&")
            if not link.startswith("/static") and "/live" not in link and link not in seen:
                todo.append(link)
    return seen


def test_injected_markup_and_script_are_shown_as_text_and_never_run(tmp_path: Path, page):
    store = tmp_path / "runs.db"
    write_records(store, multi_agent_run(PAYLOAD)).close()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    with served(store) as base:
        visited = every_page(page, base, f"/runs/{RUN_ID}/instances")
        page.goto(f"{base}/runs/{RUN_ID}/instances/root/activity")
        shown = page.inner_text("main")
        source = page.locator("pre.code").first.text_content() or ""
        page.goto(f"{base}/runs/{RUN_ID}/modules/store/memories-1")
        memory = page.inner_text("main")
        page.goto(f"{base}/runs/{RUN_ID}/project")
        board = page.inner_text("main")
    assert dialogs == []
    assert len(visited) > 60
    assert f"reply: {PAYLOAD}" in shown  # the reply, verbatim, as text
    assert f"View: {PAYLOAD}" in shown  # the view's label
    assert f"log: {PAYLOAD}" in shown  # the operator's log line
    assert (
        "views.openText('<script>window.__pwned" in source and "<img src=x onerror=" in source
    )  # the program
    assert f"memory: {PAYLOAD}" in memory
    assert f"issue: {PAYLOAD}" in board
