"""The module surfaces of the crew run gg recorded (`tests/console/crew/`), clicked through in
Chromium where a walk over every store (`test_browser_crew`) does not look: the task list as a
graph, the board on the Project tab, and a memories store the exec re-initialised."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from console.browser import served
from console.conftest import Recorded


def test_the_task_list_is_a_graph_each_task_one_column_after_what_blocks_it(crew_run: Recorded, page):
    with served(crew_run.store) as base:
        page.goto(f"{base}/runs/{crew_run.run_id}/instances/root@2/modules/tasks")
        strip = page.locator(".identity")
        expect(strip.locator(".store-id")).to_have_text("tasks-0")
        expect(strip.locator(".badge.handed")).to_have_text("handed on")
        graph = page.locator("figure.graph svg")
        expect(graph.locator("rect.task-node")).to_have_count(4)
        expect(graph.locator("rect.task-done")).to_have_count(4)  # the closer completed the last
        expect(graph.locator("path.arrow")).to_have_count(6)  # three blockers, two strokes an arrow
        xs = {
            g.locator("title").text_content().split(":")[0]: float(g.locator("rect").get_attribute("x") or "")
            for g in graph.locator("g").all()
        }
        assert xs["bolts"] == xs["nuts"] == xs["washers"] < xs["report"]
        rows = page.locator("table", has=page.locator("th", has_text="Blocked by")).locator("tbody tr")
        expect(rows.last).to_contain_text("report")
        expect(rows.last.locator("td").last).to_have_text("bolts nuts washers")


def test_the_project_tab_shows_the_issue_gg_dispatched_and_who_worked_it(crew_run: Recorded, page):
    with served(crew_run.store) as base:
        page.goto(f"{base}/runs/{crew_run.run_id}/instances")
        page.locator("a.tab", has_text="Project").click()
        expect(page.locator(".board .column h3")).to_have_text(
            ["open 0", "in progress 0", "in review 0", "done 1", "failed 0"]
        )
        card = page.locator(".board .column", has_text="done").locator(".issue")
        expect(card.locator("code").first).to_have_text("ISSUE-1")
        expect(card.locator(".title")).to_have_text("recount the bolts")
        expect(card).to_contain_text("reviewed by inspector")
        card.locator("summary", has_text="scope").click()
        expect(card.locator("dl")).to_contain_text("a count the inspector approves")
        expect(page.locator("figure.graph rect.task-done")).to_have_count(1)
        card.locator("a.chip", has_text="root.3").click()
        expect(page.locator(".file-head")).to_contain_text("root.3")
        expect(page.locator("main")).to_contain_text("issue `ISSUE-1`")  # the brief gg wrote it


def test_a_memories_store_an_exec_re_initialised_reads_so_on_both_ends(crew_run: Recorded, page):
    with served(crew_run.store) as base:
        page.goto(f"{base}/runs/{crew_run.run_id}/modules/store/memories-0")
        expect(page.locator(".identity .badge.dropped")).to_have_text("dropped")
        lifetime = page.locator("ol.lifetime li")
        expect(lifetime).to_have_text(
            ["created at root as it opened", "released at root → root@2 by exec (now memories-4)"]
        )
        lifetime.last.locator("a", has_text="memories-4").click()
        expect(page.locator(".file-head h2")).to_have_text("memories-4")
        expect(page.locator("ol.lifetime li")).to_have_text(["created at root@2 by exec"])
        expect(page.locator(".file-pane")).to_contain_text("scratchpad")
        page.locator("a.tab", has_text="Agents").click()
        row = page.locator("#profile-closer tr", has=page.locator("td", has_text="memories"))
        expect(row.locator(".badge.distribution")).to_have_text("per instance")
        expect(row.locator("td").nth(2)).to_contain_text("memories-4")


def test_the_modules_tab_is_not_offered_without_a_module_backed_capability(example_store: Path, page):
    with served(example_store) as base:
        page.goto(base + "/")
        page.locator("a.run-link").first.click()
        expect(page.locator("a.tab")).to_have_text(["Instances", "Agents", "Programs"])
        page.locator("#modules-root > summary").click()
        page.locator("#modules-root a", has_text="history").click()
        # a real run reports its roster, so the window is its store, not one inferred for it
        expect(page.locator(".identity")).to_contain_text("history-0")
        expect(page.locator(".identity .badge.inferred")).to_have_count(0)
        expect(page.locator(".identity .open-in")).to_have_count(0)
