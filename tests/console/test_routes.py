"""Every page of a one-agent run, through Starlette's test client, on the example run gg recorded,
and the clear page a damaged or foreign store gets. The run of many agents is `test_crew_pages`."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from starlette.testclient import TestClient

from console.conftest import console_client

FILES = ("overview", "prompt", "surface", "activity", "context", "requests", "metrics", "compaction")


def example_run(store: Path) -> str:
    with sqlite3.connect(store) as db:
        (run_id,) = db.execute("SELECT id FROM runs").fetchone()
    return run_id


def program_ids(store: Path) -> list[str]:
    """The library ids the example's five programs were minted (cuid2: new on every run)."""
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT json FROM events WHERE type = 'receipt' ORDER BY seq").fetchall()
    return [json.loads(text)["programId"] for (text,) in rows]


def test_the_runs_page_lists_a_run_with_its_figures(example_client: TestClient, example_store: Path):
    page = example_client.get("/")
    assert page.status_code == 200
    row = re.search(r'<a class="row run-link"[^>]*>(.*?)</a>', page.text, re.S)
    assert row is not None
    assert '<span class="name">spec-audit</span>' in row.group(1)
    assert "completed</span>" in row.group(1)
    figures = re.findall(r'<span class="num[^"]*">([^<]*)</span>', row.group(1))
    assert figures[:7] == [
        "0",
        "1",
        "5",
        "5",
        "1",
        "15,700",
        "—",
    ]  # exit, agents, turns, programs, errors, tokens, cost
    assert example_run(example_store) in page.text


def test_the_runs_page_filters_by_status_and_name(example_client: TestClient):
    assert "spec-audit" in example_client.get("/?status=completed&q=SPEC").text
    assert "No run matches this filter" in example_client.get("/?status=running").text
    assert "No run matches this filter" in example_client.get("/?q=nothing-like-it").text


def test_every_file_of_every_instance_renders(example_client: TestClient, example_store: Path):
    run = example_run(example_store)
    for file in FILES:
        page = example_client.get(f"/runs/{run}/instances/root/{file}")
        assert page.status_code == 200, file
    assert example_client.get(f"/runs/{run}/instances/root/modules/history").status_code == 200
    for tab in ("agents", "programs"):
        assert example_client.get(f"/runs/{run}/{tab}").status_code == 200


def test_a_run_with_no_module_backed_capability_has_no_modules_or_project_tab(example_client, example_store):
    run = example_run(example_store)
    page = example_client.get(f"/runs/{run}/instances")
    tabs = re.findall(r'class="tab[^"]*">([^<]+)</a>', page.text)
    assert tabs == ["Instances", "Agents", "Programs"]
    missing = example_client.get(f"/runs/{run}/modules")
    assert missing.status_code == 404
    assert "no profile enables a module-backed capability" in missing.text
    assert example_client.get(f"/runs/{run}/project").status_code == 404


def test_the_prompt_file_shows_the_exact_system_prompt_the_model_was_sent(example_client, example_store):
    run = example_run(example_store)
    with sqlite3.connect(example_store) as db:
        (text,) = db.execute(
            "SELECT json FROM events WHERE type = 'model_request' ORDER BY seq LIMIT 1"
        ).fetchone()
    system = json.loads(text)["messages"][0]["content"]
    page = example_client.get(f"/runs/{run}/instances/root/prompt?request=1")
    shown = re.search(r'<pre class="text system">(.*?)</pre>', page.text, re.S)
    assert shown is not None
    assert _unescape(shown.group(1)) == system


def test_activity_shows_replies_receipts_errors_views_and_calls(example_client, example_store):
    run = example_run(example_store)
    page = example_client.get(f"/runs/{run}/instances/root/activity").text
    assert "Eight specs. Now I&#39;ll check which of them lack a `## Rules` section." in page
    failed = program_ids(example_store)[1]
    assert f"receipt <code>{failed}</code>" in page
    assert "TypeError: Cannot read properties of undefined (reading &#39;includes&#39;)" in page
    assert "View: workspace" in page
    assert "Documentation: gg.files.listDir" in page
    assert '<code class="" title="">programs.rerun</code>' in page
    assert "chain of 2" in page


def test_the_programs_tab_shows_the_library_and_the_diff_of_a_patched_hand_over(
    example_client, example_store
):
    run = example_run(example_store)
    page = example_client.get(f"/runs/{run}/programs").text
    ids = program_ids(example_store)
    assert re.findall(r'<tr class=""><td><a href="[^"]+"><code>(\w+)</code>', page) == ids
    assert f"fetched <code>{ids[1]}</code>, patched, handed over" in page
    assert (
        '<span class="del">-  if (!read.content.includes(&#34;## Rules&#34;)) missing.push(name);</span>'
        in page
    )
    assert (
        '<span class="add">+  if (!read.contents.includes(&#34;## Rules&#34;)) missing.push(name);</span>'
        in page
    )


def test_a_missing_store_serves_a_page_saying_no_run_was_recorded(tmp_path: Path):
    page = console_client(tmp_path / ".gg" / "runs.db").get("/")
    assert page.status_code == 200
    assert "No run has been recorded" in page.text


def test_a_file_that_is_not_sqlite_is_a_clear_page(tmp_path: Path):
    path = tmp_path / "runs.db"
    path.write_bytes(b"this is not a database at all, just words" * 100)
    page = console_client(path).get("/")
    assert page.status_code == 503
    assert "it is not an SQLite database" in page.text and "Traceback" not in page.text


def test_a_truncated_store_is_a_clear_page(example_store: Path, tmp_path: Path):
    whole = example_store.read_bytes()
    path = tmp_path / "runs.db"
    path.write_bytes(whole[: len(whole) // 2])
    client = console_client(path)
    for url in ("/", f"/runs/{example_run(example_store)}/instances"):
        page = client.get(url)
        assert page.status_code in (404, 503)
        assert "Traceback" not in page.text


def test_an_sqlite_file_of_another_schema_is_a_clear_page(tmp_path: Path):
    path = tmp_path / "runs.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (body TEXT)")
    page = console_client(path).get("/")
    assert page.status_code == 503
    assert "not a gg run store (it lacks events, runs)" in page.text


def test_a_store_of_a_newer_schema_is_a_clear_page(tmp_path: Path):
    path = tmp_path / "runs.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (id TEXT)")
        db.execute("CREATE TABLE events (run_id TEXT)")
        db.execute("PRAGMA user_version = 99")
    page = console_client(path).get("/")
    assert page.status_code == 503
    assert "newer than this gg reads" in page.text


def _unescape(html: str) -> str:
    import html as html_module

    return html_module.unescape(html)


def test_a_run_with_damaged_events_says_how_many_it_could_not_read(example_store: Path, tmp_path: Path):
    path = tmp_path / "runs.db"
    path.write_bytes(example_store.read_bytes())
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE events SET json = '[1, 2]'"
            " WHERE seq = (SELECT MIN(seq) FROM events WHERE type = 'receipt')"
        )
    page = console_client(path).get(f"/runs/{example_run(path)}/instances")
    assert page.status_code == 200
    assert "1 stored event of this run could not be read (damaged in the store)" in page.text
