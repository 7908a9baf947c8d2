"""Every page, through Starlette's test client, on the example run gg recorded and on the
synthetic run of many agents."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path

from starlette.testclient import TestClient

from console.conftest import MULTI_RUN
from gg.console.app import CONTENT_SECURITY_POLICY, create_app

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


def test_a_run_of_many_agents_offers_every_tab_in_order(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/instances")
    tabs = re.findall(r'class="tab[^"]*">([^<]+)</a>', page.text)
    assert tabs == ["Instances", "Modules", "Agents", "Project", "Programs"]
    for agent in ("root", "root.1", "impl.1", "impl.2", "root.f1"):
        for file in FILES:
            assert multi_client.get(f"/runs/{MULTI_RUN}/instances/{agent}/{file}").status_code == 200


def test_the_modules_folder_rows_carry_the_link_glyph_or_handed_on(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/instances/impl.1/modules/memories").text
    folder = page[page.index('id="modules-impl.1"') :]
    folder = folder[: folder.index("</details>")]
    assert re.findall(r'modules/(\w+)">', folder) == ["history", "memories", "board", "archive"]
    assert "2 holders</span>" in folder and "5 holders</span>" in folder
    successor = multi_client.get(f"/runs/{MULTI_RUN}/instances/root.1/modules/history").text
    assert '<span class="badge handed">handed on</span>' in successor


def test_a_module_file_leads_with_its_identity_strip(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/instances/impl.1/modules/memories").text
    strip = page[page.index('<div class="identity">') : page.index("Open in Modules")]
    assert '<code class="store-id">memories-1</code>' in strip
    assert 'profile <span class="muted">scope shared</span>' in strip
    assert "300 tokens" in strip
    assert 'href="/runs/run-20260101-000000-mult/instances/impl.2/modules/memories">impl.2</a>' in strip


def test_the_modules_tab_lands_on_the_first_kind_after_history(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/modules").text
    assert "<h2>memories</h2>" in page
    assert re.search(r'id="kind-history"(?! open)>', page)  # history's folder closed
    assert 'id="kind-memories" open' in page


def test_the_history_overview_withholds_the_never_written_figure(multi_client: TestClient):
    history = multi_client.get(f"/runs/{MULTI_RUN}/modules/kind/history").text
    assert "never written to" not in history
    memories = multi_client.get(f"/runs/{MULTI_RUN}/modules/kind/memories").text
    assert '<span class="value">3</span><span class="label">never written to</span>' in memories
    archive = multi_client.get(f"/runs/{MULTI_RUN}/modules/kind/archive").text
    assert '<span class="label">per turn: no context band</span>' in archive
    assert "measured zero" in memories and "not measured yet" in memories


def test_a_store_reads_in_five_sections_in_order(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/modules/store/board-0").text
    sections = re.findall(r"<h3>(\w+)</h3>", page)
    assert sections[:5] == ["Identity", "Holders", "Lifetime", "Cost", "Contents"]
    assert "5 holders" in page
    assert page.count('class="chip" href="/runs/run-20260101-000000-mult/instances/') >= 5


def test_the_agents_tab_badges_each_kind_per_profile(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/agents").text
    impl = page[page.index('id="profile-impl"') :]
    impl = impl[: impl.index("</section>")]
    assert re.findall(
        r"<td>(\w+)</td><td><span class=\"badge distribution[^\"]*\">([\w -]+)</span>", impl
    ) == [
        ("history", "per instance"),
        ("memories", "agent-scoped"),
        ("board", "run-global"),
        ("archive", "per instance"),
    ]
    assert "api-notes" in impl  # an agent-scoped store's contents are shown inline


def test_the_project_tab_shows_the_board(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/project").text
    assert "AUTH-1" in page and "AUTH-2" in page and "epic: notes" in page


def test_text_from_a_run_is_escaped(multi_client: TestClient):
    page = multi_client.get(f"/runs/{MULTI_RUN}/instances/root/activity").text
    assert "reply: notes and &lt;b&gt;bold&lt;/b&gt;" in page
    assert "<b>bold</b>" not in page


def test_an_unknown_run_or_instance_is_a_clear_page(multi_client: TestClient):
    page = multi_client.get("/runs/run-nope/instances")
    assert page.status_code == 404
    assert "No such run" in page.text and "Traceback" not in page.text
    assert multi_client.get(f"/runs/{MULTI_RUN}/instances/nobody/overview").status_code == 404
    assert multi_client.get(f"/runs/{MULTI_RUN}/instances/root/nofile").status_code == 404
    assert multi_client.get(f"/runs/{MULTI_RUN}/modules/store/memories-99").status_code == 404


def test_every_response_carries_the_content_security_policy(multi_client: TestClient):
    for path in ("/", f"/runs/{MULTI_RUN}/agents", "/static/console.css", "/runs/none/instances"):
        response = multi_client.get(path)
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert response.headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_a_missing_store_serves_a_page_saying_no_run_was_recorded(tmp_path: Path):
    page = TestClient(create_app(tmp_path / ".gg" / "runs.db")).get("/")
    assert page.status_code == 200
    assert "No run has been recorded" in page.text


def test_a_file_that_is_not_sqlite_is_a_clear_page(tmp_path: Path):
    path = tmp_path / "runs.db"
    path.write_bytes(b"this is not a database at all, just words" * 100)
    page = TestClient(create_app(path)).get("/")
    assert page.status_code == 503
    assert "it is not an SQLite database" in page.text and "Traceback" not in page.text


def test_a_truncated_store_is_a_clear_page(example_store: Path, tmp_path: Path):
    whole = example_store.read_bytes()
    path = tmp_path / "runs.db"
    path.write_bytes(whole[: len(whole) // 2])
    client = TestClient(create_app(path))
    for url in ("/", f"/runs/{example_run(example_store)}/instances"):
        page = client.get(url)
        assert page.status_code in (404, 503)
        assert "Traceback" not in page.text


def test_an_sqlite_file_of_another_schema_is_a_clear_page(tmp_path: Path):
    path = tmp_path / "runs.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (body TEXT)")
    page = TestClient(create_app(path)).get("/")
    assert page.status_code == 503
    assert "not a gg run store (it lacks events, runs)" in page.text


def test_a_store_of_a_newer_schema_is_a_clear_page(tmp_path: Path):
    path = tmp_path / "runs.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (id TEXT)")
        db.execute("CREATE TABLE events (run_id TEXT)")
        db.execute("PRAGMA user_version = 99")
    page = TestClient(create_app(path)).get("/")
    assert page.status_code == 503
    assert "newer than this gg reads" in page.text


def test_the_console_never_writes_the_store(multi_store: Path):
    before = hashlib.sha256(multi_store.read_bytes()).hexdigest()
    client = TestClient(create_app(multi_store))
    for path in (
        "/",
        f"/runs/{MULTI_RUN}/instances",
        f"/runs/{MULTI_RUN}/modules",
        f"/runs/{MULTI_RUN}/agents",
    ):
        assert client.get(path).status_code == 200
    assert hashlib.sha256(multi_store.read_bytes()).hexdigest() == before


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
    page = TestClient(create_app(path)).get(f"/runs/{example_run(path)}/instances")
    assert page.status_code == 200
    assert "1 stored event of this run could not be read (damaged in the store)" in page.text
