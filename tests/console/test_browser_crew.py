"""The three module surfaces of a run gg recorded, clicked through in Chromium: every store the run
holds reads the same way on the Modules tab, on each holder's Instances file and on its
profile's Agents row (holder counts, badges, `handed on`).

The subject is the crew run (`tests/console/crew/`, recorded by `gg run` in `crew_run`). The walk
over the stores reads each from the Modules tab and checks it everywhere else, so a kind a
profile enables in `crew/gg.json` is checked with the rest; `EXPECTED` pins what the run holds
today, literally, and grows with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Page, expect

from console.browser import served
from console.conftest import Recorded

# store -> (reach, holders in order, badge on every surface: "" / "handed on" / "N holders")
EXPECTED = {
    "history-0": ("root → closer", ["root", "root@2"], "handed on"),
    "history-1": ("worker", ["root.1"], ""),
    "history-2": ("worker", ["root.2"], ""),
    "history-3": ("root", ["root.f1"], ""),
    "memories-0": ("worker", ["root.1", "root.2"], "2 holders"),  # the workers' `shared` store
    "skills-0": ("root → closer", ["root", "root@2"], "handed on"),
    "skills-1": ("worker", ["root.1"], ""),
    "skills-2": ("worker", ["root.2"], ""),
    "skills-3": ("root", ["root.f1"], ""),
}
# profile -> kind -> the Agents tab's badge
AGENT_BADGES = {
    "root": {"history": "per instance", "skills": "per instance"},
    "worker": {"history": "per instance", "memories": "agent-scoped", "skills": "per instance"},
    "closer": {"history": "handed on", "skills": "handed on"},
}


@dataclass(frozen=True)
class StoreRow:
    id: str
    kind: str
    reach: str
    holders: int
    badge: str


def store_rows(page: Page, base: str, run: str) -> list[StoreRow]:
    """Every store as each kind's overview on the Modules tab lists it."""
    page.goto(f"{base}/runs/{run}/modules")
    kinds = page.locator("nav.explorer details.folder").evaluate_all("els => els.map(e => e.id.slice(5))")
    rows: list[StoreRow] = []
    for kind in kinds:
        folder = page.locator(f"#kind-{kind}")
        if folder.get_attribute("open") is None:  # history's folder is closed by default
            folder.locator("> summary").click()
        page.locator(f"#kind-{kind} a.file", has_text="Overview").click()
        expect(page.locator(".file-head h2")).to_have_text(kind)
        for tr in page.locator(".file-pane table tbody tr").all():
            cells = tr.locator("td")
            rows.append(
                StoreRow(
                    id=cells.nth(0).inner_text().strip(),
                    kind=kind,
                    reach=cells.nth(1).inner_text().strip(),
                    holders=int(cells.nth(2).inner_text()),
                    badge=cells.nth(3).inner_text().strip(),
                )
            )
    return rows


def badge_of(page: Page, scope: str) -> str:
    """The sharing badge shown in `scope`: "N holders", "handed on" or nothing."""
    badges = page.locator(f"{scope} .badge.shared, {scope} .badge.handed")
    return badges.first.inner_text().strip() if badges.count() else ""


def check_store(page: Page, row: StoreRow) -> list[str]:
    """Opens the store from the Modules tab, then each holder's file through its chip; returns the
    holders, asserting the store reads as `row` on each."""
    page.locator("nav.explorer a.file", has=page.locator("code", has_text=row.id)).click()
    expect(page.locator(".file-head h2")).to_have_text(row.id)
    assert badge_of(page, ".identity") == row.badge, row
    holders = page.locator(".file-pane table").first.locator("tbody tr td:first-child a.chip")
    expect(holders).to_have_count(row.holders)
    held_by = [name.strip() for name in holders.all_inner_texts()]
    store_page = page.url
    for agent in held_by:
        page.locator(".file-pane table").first.locator("a.chip", has_text=agent).first.click()
        expect(page.locator(".identity .store-id")).to_have_text(row.id)
        assert badge_of(page, ".identity") == row.badge, (row, agent)
        selected = "nav.explorer li:has(> a.file.selected)"  # the row of the modules folder
        folder_row = page.locator(selected)
        assert badge_of(page, selected) == row.badge, (row, agent)
        expect(folder_row.locator("a.file")).to_have_text(row.kind)
        chips = page.locator(".identity .chips a.chip").all_inner_texts()
        assert sorted(c.strip() for c in chips) == sorted(h for h in held_by if h != agent), (row, agent)
        page.goto(store_page)
    return held_by


def test_every_store_of_a_recorded_run_reads_the_same_on_all_three_surfaces(crew_run: Recorded, page: Page):
    with served(crew_run.store) as base:
        rows = store_rows(page, base, crew_run.run_id)
        observed = {}
        for row in rows:
            page.goto(f"{base}/runs/{crew_run.run_id}/modules/kind/{row.kind}")
            observed[row.id] = (row.reach, sorted(check_store(page, row)), row.badge)
            shared = row.badge.endswith("holders")
            assert not shared or row.badge == f"{row.holders} holders", row  # the count is the holders'

        page.locator("a.tab", has_text="Agents").click()
        badges: dict[str, dict[str, str]] = {}
        for section in page.locator("section.profile").all():
            profile = section.locator(".profile-head h2").inner_text().strip()
            for tr in section.locator("table.modules-rows > tbody > tr").all():
                kind = tr.locator("td").first.inner_text().strip()
                badges.setdefault(profile, {})[kind] = tr.locator(".badge.distribution").inner_text().strip()
                listed = tr.locator("td").nth(2).locator("a > code").all_inner_texts()
                for store in listed:  # a store the profile's row names counts the profile's holders
                    assert store in observed, (profile, store)
    assert observed == EXPECTED
    assert badges == AGENT_BADGES


def test_a_store_handed_on_by_an_exec_is_one_row_handed_on_and_shared_nowhere(crew_run: Recorded, page: Page):
    with served(crew_run.store) as base:
        page.goto(f"{base}/runs/{crew_run.run_id}/instances/root@2/overview")
        folder = page.locator("#modules-root\\@2")
        expect(folder).not_to_have_attribute("open", "")  # closed by default
        folder.locator("> summary").click()
        history = folder.locator("li", has=page.locator("a", has_text="history"))
        expect(history.locator(".badge.handed")).to_have_text("handed on")
        expect(history.locator(".badge.shared")).to_have_count(0)
        history.locator("a").click()
        strip = page.locator(".identity")
        expect(strip.locator(".store-id")).to_have_text("history-0")
        expect(strip.locator(".chips a.chip")).to_have_text(["root"])
        strip.locator(".open-in").click()
        expect(page.locator("ol.lifetime li")).to_have_text(
            ["created at root as it opened", "carried at root → root@2 by exec"]
        )
        page.goto(f"{base}/runs/{crew_run.run_id}/modules/store/history-3")
        expect(page.locator("ol.lifetime li").first).to_contain_text("copied")  # the fork's copy
        expect(page.locator("ol.lifetime li").first).to_contain_text("history-0")
