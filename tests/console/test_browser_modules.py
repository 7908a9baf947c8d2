"""The three module surfaces, clicked through in Chromium, on the synthetic run
(`console.scenario`): a store held by two instances at once (`2 holders`, `agent-scoped`) and a
memories store re-initialized by an exec, which no run gg records can hold until memories are
wired into runs. The recorded run's walk is `test_browser_crew`."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from console.browser import served
from console.scenario import RUN_ID


def test_a_shared_store_reads_the_same_on_all_three_surfaces(multi_store: Path, page):
    with served(multi_store) as base:
        page.goto(f"{base}/runs/{RUN_ID}/instances/impl.1/overview")
        folder = page.locator("#modules-impl\\.1")
        expect(folder).not_to_have_attribute("open", "")  # closed by default
        folder.locator("> summary").click()
        row = folder.locator("li", has=page.locator("a", has_text="memories"))
        expect(row.locator(".badge.shared")).to_have_text("2 holders")
        row.locator("a", has_text="memories").click()
        strip = page.locator(".identity")
        expect(strip.locator(".store-id")).to_have_text("memories-1")
        expect(strip.locator(".badge.shared")).to_have_text("2 holders")
        expect(strip.locator(".chip")).to_have_text(["impl.2"])
        strip.locator(".chip", has_text="impl.2").click()
        expect(page.locator(".file-head")).to_contain_text("impl.2")
        expect(page.locator(".identity .store-id")).to_have_text("memories-1")
        page.locator(".identity .open-in").click()

        expect(page.locator(".file-head h2")).to_have_text("memories-1")
        holders = page.locator("table").first.locator("tbody tr")
        expect(holders).to_have_count(2)
        expect(page.locator(".identity .badge.shared")).to_have_text("2 holders")
        explorer_row = page.locator("nav.explorer li", has=page.locator("code", has_text="memories-1"))
        expect(explorer_row.locator(".badge.shared")).to_have_text("2 holders")
        holders.first.locator("td").nth(1).locator("a").click()

        section = page.locator("#profile-impl")
        memories = section.locator("tr", has=page.locator("td", has_text="memories"))
        expect(memories.locator(".badge.distribution")).to_have_text("agent-scoped")
        expect(memories.locator("td").nth(2)).to_contain_text("memories-1")
        expect(memories.locator("td").nth(2)).to_contain_text("2")
        expect(memories.locator(".inline-contents")).to_contain_text("api-notes")


def test_a_store_handed_on_reads_handed_on_everywhere_and_shared_nowhere(multi_store: Path, page):
    with served(multi_store) as base:
        page.goto(f"{base}/runs/{RUN_ID}/instances/root.1/modules/history")
        folder = page.locator("#modules-root\\.1")
        expect(folder).to_have_attribute("open", "")  # the selected file's folder shows it
        history = folder.locator("li", has=page.locator("a", has_text="history"))
        expect(history.locator(".badge.handed")).to_have_text("handed on")
        expect(history.locator(".badge.shared")).to_have_count(0)
        expect(page.locator(".identity .badge.handed")).to_have_text("handed on")
        page.locator(".identity .open-in").click()

        expect(page.locator(".file-head h2")).to_have_text("history-0")
        expect(page.locator(".identity .badge.handed")).to_have_text("handed on")
        expect(page.locator(".identity .badge.shared")).to_have_count(0)
        expect(page.locator("ol.lifetime li")).to_have_text(
            ["created at root as it opened", "carried at root → root.1 by exec"]
        )
        page.locator("a.tab", has_text="Agents").click()

        reviewer = page.locator("#profile-reviewer")
        row = reviewer.locator("tr", has=page.locator("td", has_text="history"))
        expect(row.locator(".badge.distribution")).to_have_text("handed on")


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
