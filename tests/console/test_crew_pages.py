"""The pages of the crew run gg recorded (`tests/console/crew/`), through Starlette's test client:
every tab and file, and what its hand-over chain, its shared, handed-on, per-instance and
run-global stores, its board and its measured module costs read as."""

from __future__ import annotations

import hashlib
import html
import re
from typing import Any

from starlette.testclient import TestClient

from console.conftest import Recorded, console_client
from gg.console.app import CONTENT_SECURITY_POLICY
from gg.console.source import RunSource


def client(run: Recorded) -> TestClient:
    return console_client(run.store)


def test_a_hand_over_chain_shows_every_links_own_source_and_the_diff_it_was_patched_by(crew_run: Recorded):
    page = html.unescape(client(crew_run).get(f"/runs/{crew_run.run_id}/programs").text)
    (chain,) = re.findall(r'<ol class="chain">(.*?)</ol>', page, re.S)
    links = re.findall(r'<li class="link (ok|failed)">(.*?)</li>', chain, re.S)
    assert [verdict for verdict, _ in links] == ["ok", "ok"]
    assert "link 1 of 2 (as submitted)" in links[0][1] and "programs.rerun(" in links[0][1]
    assert "link 2 of 2 (ran last)" in links[1][1] and "read.contents.split" in links[1][1]
    assert "programs.rerun(" not in links[1][1]  # each link shows its own source
    assert '-for (const line of read.content.split("\\n")) {' in page
    assert '+for (const line of read.contents.split("\\n")) {' in page


def test_a_store_handed_on_names_the_profiles_it_passed_through_and_is_shared_nowhere(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/modules/kind/history").text
    row = re.search(r"history-0</code></a></td><td>([^<]*)</td><td class=\"num\">(\d+)</td>", page)
    assert row is not None and row.groups() == ("root → closer", "2")
    assert '<span class="value">0</span><span class="label">shared</span>' in page


def test_the_agents_tab_withholds_never_written_for_the_history_kind(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/agents").text
    worker = page[page.index('id="profile-worker"') :]
    history = re.search(r"<td>history</td>(.*?)</tr>", worker, re.S)
    skills = re.search(r"<td>skills</td>(.*?)</tr>", worker, re.S)
    assert history is not None and "never written to" not in history.group(1)
    assert skills is not None and re.search(r"\d of 3 stores never written to", skills.group(1))


def test_a_module_kind_the_instance_does_not_hold_has_no_access(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/instances/root.4/surface").text  # the inspector
    tasks = re.search(r"<td>tasks</td><td>off</td><td>—</td><td>—</td><td>([^<]*)</td>", page)
    memories = re.search(
        r"<td>memories</td><td><code>memories-3</code></td><td>created</td><td>inherited</td><td>([^<]*)</td>",
        page,
    )  # scoped `inherited`, but dispatched by gg, which offers no store: one of its own
    assert tasks is not None and tasks.group(1) == "—"
    assert memories is not None and memories.group(1) == "read/write"


def test_activity_names_the_fork_and_the_exec_a_turn_made_and_links_a_chain_to_its_hand_over(
    crew_run: Recorded,
):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/instances/root/activity").text
    turns = dict(re.findall(r'<section class="turn" id="turn-(\d+)">(.*?)</section>', page, re.S))
    made = {
        n: re.findall(r'<div class="succession"><span class="label">(\w+)</span> <a[^>]*>([^<]+)</a>', t)
        for n, t in turns.items()
    }
    assert made == {"1": [("fork", "root.f1")], "2": [], "3": [], "4": [], "5": [("exec", "root@2")]}
    assert f'href="/runs/{crew_run.run_id}/programs#handover-root-3-1">chain of 2</a>' in turns["3"]


FILES = ("overview", "prompt", "surface", "activity", "context", "requests", "metrics", "compaction")
INSTANCES = ("root", "root.1", "root.2", "root.3", "root.4", "root.f1", "root@2")


def test_a_run_of_many_agents_offers_every_tab_in_order_and_every_file_of_every_instance(crew_run: Recorded):
    pages = client(crew_run)
    page = pages.get(f"/runs/{crew_run.run_id}/instances").text
    assert re.findall(r'class="tab[^"]*">([^<]+)</a>', page) == [
        "Instances",
        "Modules",
        "Agents",
        "Project",
        "Programs",
    ]
    for agent in INSTANCES:
        for file in FILES:
            assert pages.get(f"/runs/{crew_run.run_id}/instances/{agent}/{file}").status_code == 200


def test_the_modules_folder_lists_the_kinds_held_in_kind_order_with_their_holder_counts(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/instances/root.3/modules/memories").text
    folder = page[page.index('id="modules-root.3"') :]
    folder = folder[: folder.index("</details>")]
    assert re.findall(r'modules/(\w+)">', folder) == ["history", "memories", "board", "skills"]
    assert "3 holders</span>" in folder and "7 holders</span>" in folder


def test_a_module_file_leads_with_its_identity_strip_and_its_measured_cost(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/instances/root.3/modules/memories").text
    strip = page[page.index('<div class="identity">') : page.index("Open in Modules")]
    assert '<code class="store-id">memories-1</code>' in strip
    assert 'profile <span class="muted">scope shared</span>' in strip
    # the Memory band of the breakdown gg measured for root.3's one request
    assert '<dt>this window</dt><dd><span class="cost">25 tokens</span>' in strip
    assert f'href="/runs/{crew_run.run_id}/instances/root.1/modules/memories">root.1</a>' in strip


def test_the_modules_tab_lands_on_the_first_kind_after_history(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/modules").text
    assert "<h2>memories</h2>" in page
    assert re.search(r'id="kind-history"(?! open)>', page)  # history's folder closed
    assert 'id="kind-memories" open' in page


def test_each_overview_withholds_what_would_be_a_lie_rather_than_a_zero(crew_run: Recorded):
    pages = client(crew_run)
    history = pages.get(f"/runs/{crew_run.run_id}/modules/kind/history").text
    assert "never written to" not in history
    memories = pages.get(f"/runs/{crew_run.run_id}/modules/kind/memories").text
    assert (
        '<span class="value">1</span><span class="label">never written to</span>' in memories
    )  # the inspector's
    assert "measured zero" in memories
    archive = pages.get(f"/runs/{crew_run.run_id}/modules/kind/archive").text
    assert '<span class="label">per turn: no context band</span>' in archive
    assert (
        '<span class="value">1</span><span class="label">never written to</span>' in archive
    )  # the fork's copy


def test_the_board_reads_in_five_sections_held_by_every_agent_of_the_run(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/modules/store/board-0").text
    assert re.findall(r"<h3>(\w+)</h3>", page)[:5] == ["Identity", "Holders", "Lifetime", "Cost", "Contents"]
    assert "7 holders" in page
    for agent in INSTANCES:
        assert f'class="chip" href="/runs/{crew_run.run_id}/instances/{agent}/modules/board"' in page


def test_the_agents_tab_badges_each_kind_per_profile_and_shows_an_agent_scoped_store_inline(
    crew_run: Recorded,
):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/agents").text
    worker = page[page.index('id="profile-worker"') :]
    worker = worker[: worker.index("</section>")]
    assert re.findall(
        r"<td>(\w+)</td><td><span class=\"badge distribution[^\"]*\">([\w -]+)</span>", worker
    ) == [
        ("history", "per instance"),
        ("memories", "agent-scoped"),
        ("board", "run-global"),
        ("skills", "per instance"),
    ]
    assert "counted twice, counted twice" in worker  # the shared notes, inline


def test_the_project_tab_shows_the_board_the_planner_filed_on(crew_run: Recorded):
    page = html.unescape(client(crew_run).get(f"/runs/{crew_run.run_id}/project").text)
    assert "ISSUE-1" in page and "recount the bolts" in page
    assert f'href="/runs/{crew_run.run_id}/instances/root.3/overview"' in page  # its implementer


def test_an_unknown_run_instance_file_or_store_is_a_clear_page(crew_run: Recorded):
    pages = client(crew_run)
    missing = pages.get("/runs/run-nope/instances")
    assert missing.status_code == 404
    assert "No such run" in missing.text and "Traceback" not in missing.text
    assert pages.get(f"/runs/{crew_run.run_id}/instances/nobody/overview").status_code == 404
    assert pages.get(f"/runs/{crew_run.run_id}/instances/root/nofile").status_code == 404
    assert pages.get(f"/runs/{crew_run.run_id}/modules/store/memories-99").status_code == 404


def test_every_response_carries_the_content_security_policy(crew_run: Recorded):
    pages = client(crew_run)
    for path in ("/", f"/runs/{crew_run.run_id}/agents", "/static/console.css", "/runs/none/instances"):
        response = pages.get(path)
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert response.headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_the_console_never_writes_the_store(crew_run: Recorded):
    before = hashlib.sha256(crew_run.store.read_bytes()).hexdigest()
    pages = client(crew_run)
    for path in (
        "/",
        *(f"/runs/{crew_run.run_id}/{tab}" for tab in ("instances", "modules", "agents", "project")),
    ):
        assert pages.get(path).status_code == 200
    assert hashlib.sha256(crew_run.store.read_bytes()).hexdigest() == before


def test_a_successor_shows_the_library_it_took_over_as_its_predecessor_held_it(crew_run: Recorded):
    page = html.unescape(client(crew_run).get(f"/runs/{crew_run.run_id}/programs").text)
    section = page[page.index('id="library-root@2"') :]
    section = section[: section.index("</section>")]
    (taken,) = re.findall(r'<div class="taken-over">(.*?)</div>', section, re.S)
    assert "Taken over from" in taken and "by exec, after its turn 5" in taken
    shown = re.findall(r"<code class=\"(?:good|bad)\">(\w+)</code>", taken)
    # what the closer's own `programs.history()` listed before its program was kept
    (held,) = re.findall(r"held: ([\w ]+)", section_of(client(crew_run), crew_run, "root@2"))
    assert shown == held.split() and len(shown) == 5


def section_of(pages: TestClient, run: Recorded, agent: str) -> str:
    return html.unescape(pages.get(f"/runs/{run.run_id}/instances/{agent}/activity").text)


def test_a_skill_read_in_a_program_is_marked_read_by_the_snapshot_gg_reports_after_it(crew_run: Recorded):
    page = html.unescape(
        client(crew_run).get(f"/runs/{crew_run.run_id}/instances/root.1/modules/skills").text
    )
    rows = dict(re.findall(r"<tr[^>]*><td><code>([\w-]+)</code></td><td>[^<]*</td><td>(read|)</td>", page))
    assert rows.get("tally") == "read" and rows.get("triage") == ""


def breakdowns(run: Recorded, agent: str) -> list[dict[str, Any]]:
    """The `context_breakdown` events gg emitted for `agent`'s requests, in order."""
    return [
        e
        for e in RunSource(run.store).events(run.run_id)
        if e["type"] == "context_breakdown" and e["agentId"] == agent
    ]


def band(event: dict[str, Any], name: str) -> int:
    return next((b["tokens"] for b in event["bands"] if b["band"] == name), 0)


def test_the_context_file_shows_each_band_gg_measured_for_each_request(crew_run: Recorded):
    page = client(crew_run).get(f"/runs/{crew_run.run_id}/instances/root/context").text
    table = page[page.index("<table") :]
    names = re.findall(r'<th class="num">(\w+)</th>', table)[:-1]  # the bands, then Total
    rows = re.findall(r"<tr><td>(\d+)</td>(.*?)</tr>", table, re.S)
    reported = breakdowns(crew_run, "root")
    assert [int(turn) for turn, _ in rows] == [e["turn"] for e in reported] == [1, 2, 3, 4, 5]
    for (_, cells), event in zip(rows, reported, strict=True):
        figures = re.findall(r'<td class="num">([\d,]*)', cells)
        stated = {b["band"]: f"{b['tokens']:,}" for b in event["bands"]}
        assert dict(zip(names, figures[:-1], strict=True)) == {n: stated.get(n, "") for n in names}
        assert figures[-1] == f"{event['inputTokens']:,}"  # the bands add up to what the provider billed
    assert "estimated" not in table


def test_module_costs_are_the_bands_gg_measured_and_withheld_figures_stay_withheld(crew_run: Recorded):
    pages = client(crew_run)
    closer, fork = breakdowns(crew_run, "root@2")[-1], breakdowns(crew_run, "root.f1")[-1]
    strip = pages.get(f"/runs/{crew_run.run_id}/instances/root@2/modules/tasks").text
    assert f'<dt>this window</dt><dd><span class="cost">{band(closer, "TaskList")} tokens</span>' in strip
    overview = pages.get(f"/runs/{crew_run.run_id}/modules/kind/tasks").text
    summed = band(closer, "TaskList") + band(fork, "TaskList")  # the live holders of tasks-0 and tasks-1
    assert (
        f'<span class="value">{summed} tokens</span><span class="label">per turn, summed</span>' in overview
    )
    history = pages.get(f"/runs/{crew_run.run_id}/modules/kind/history").text
    assert (
        f'<span class="cost">{closer["inputTokens"]:,} tokens</span>' in history
    )  # a window costs all of it
    board = pages.get(f"/runs/{crew_run.run_id}/modules/store/board-0").text
    assert "measured zero" in board and "not measured yet" not in board  # no Board band: a measured zero
    archive = pages.get(f"/runs/{crew_run.run_id}/instances/root.f1/modules/archive").text
    assert (
        "no context band" in archive
        and "tokens" not in archive[archive.index('<div class="identity">') :][:800]
    )


def test_activity_says_what_a_turn_took_out_of_its_window_and_that_its_views_are_not_known(
    crew_run: Recorded,
):
    page = html.unescape(client(crew_run).get(f"/runs/{crew_run.run_id}/instances/root/activity").text)
    turns = dict(re.findall(r'<section class="turn" id="turn-(\d+)">(.*?)</section>', page, re.S))
    assert '<span class="label">context</span> Archived turns: 2.' in turns["4"]
    assert "not known: the next request restated the whole window" in turns["4"]
    assert f'href="/runs/{crew_run.run_id}/instances/root/prompt?request=5">Prompt</a>' in turns["4"]
    assert "not known" not in turns["3"] and "View: kinds" in turns["3"]
