"""The three module surfaces of a run gg recorded, clicked through in Chromium: every store the run
holds reads the same way on the Modules tab, on each holder's Instances file and on its
profile's Agents row (holder counts, badges, `handed on`).

The subject is the crew run (`tests/console/crew/`, recorded by `gg run` in `crew_run`): every
module kind, held for real. The walk over the stores reads each from the Modules tab and checks it
everywhere else, so a kind a profile enables in `crew/gg.json` is checked with the rest;
`EXPECTED` pins what the run holds, literally, and grows with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from console.browser import served
from console.conftest import Recorded

# store -> (reach, holders in order, badges on every surface: "N holders" / "handed on" / "dropped")
EXPECTED = {
    "history-0": ("root \u2192 closer", ["root", "root@2"], "handed on"),
    "history-1": ("worker", ["root.1"], ""),
    "history-2": ("worker", ["root.2"], ""),
    "history-3": ("root", ["root.f1"], ""),
    "history-4": ("worker", ["root.3"], ""),  # the board's implementer
    "history-5": ("inspector", ["root.4"], ""),  # the board's reviewer
    # the planner's markdown notes, let go at the exec into a scratchpad profile (re-initialised)
    "memories-0": ("(dropped)", ["root"], "dropped"),
    "memories-1": ("worker", ["root.1", "root.2", "root.3"], "3 holders"),  # the workers' `shared` store
    "memories-2": ("root", ["root.f1"], ""),  # the fork's copy
    "memories-3": ("inspector", ["root.4"], ""),  # `inherited`, but gg dispatched it: no spawner
    "memories-4": ("closer", ["root@2"], ""),  # the fresh scratchpad the exec started
    "tasks-0": ("root \u2192 closer", ["root", "root@2"], "handed on"),
    "tasks-1": ("root", ["root.f1"], ""),
    "board-0": (
        "run-global",
        ["root", "root.1", "root.2", "root.3", "root.4", "root.f1", "root@2"],
        "7 holders",
    ),
    "skills-0": ("root \u2192 closer", ["root", "root@2"], "handed on"),
    "skills-1": ("worker", ["root.1"], ""),
    "skills-2": ("worker", ["root.2"], ""),
    "skills-3": ("root", ["root.f1"], ""),
    "skills-4": ("worker", ["root.3"], ""),
    "archive-0": ("(dropped)", ["root"], "dropped"),  # the closer keeps no archive
    "archive-1": ("root", ["root.f1"], ""),
}
# profile -> kind -> the Agents tab's badge
AGENT_BADGES = {
    "root": {
        "history": "per instance",
        "memories": "per instance",
        "tasks": "per instance",
        "board": "run-global",
        "skills": "per instance",
        "archive": "per instance",
    },
    "closer": {
        "history": "handed on",
        "memories": "per instance",
        "tasks": "handed on",
        "board": "run-global",
        "skills": "handed on",
    },
    "worker": {
        "history": "per instance",
        "memories": "agent-scoped",
        "board": "run-global",
        "skills": "per instance",
    },
    "inspector": {"history": "per instance", "memories": "per instance", "board": "run-global"},
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
    """The store badges shown in `scope`: "N holders", "handed on", "dropped" or nothing."""
    badges = page.locator(f"{scope} .badge.shared, {scope} .badge.handed, {scope} .badge.dropped")
    return " ".join(b.strip() for b in badges.all_inner_texts())


def listed_stores(row: Locator) -> list[tuple[str, str]]:
    """The stores an Agents row names, each with the holder count beside it ("" for none)."""
    return (
        row.locator("td")
        .nth(2)
        .evaluate(
            """td => [...td.querySelectorAll(':scope > a:has(> code)')].map(a => {
            const next = a.nextElementSibling;
            const count = next && next.matches('span.muted') && next.querySelector('svg.glyph');
            return [a.innerText.trim(), count ? next.innerText.trim() : ''];
        })"""
        )
    )


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
        page.wait_for_url(f"{base}/runs/{crew_run.run_id}/agents")  # the tab's page, not the last one's
        badges: dict[str, dict[str, str]] = {}
        for section in page.locator("section.profile").all():
            section.scroll_into_view_if_needed()  # a profile renders when seen (content-visibility)
            profile = section.locator(".profile-head h2").inner_text().strip()
            for tr in section.locator("table.modules-rows > tbody > tr").all():
                kind = tr.locator("td").first.inner_text().strip()
                badges.setdefault(profile, {})[kind] = tr.locator(".badge.distribution").inner_text().strip()
                for store, count in listed_stores(tr):  # the count beside a store is its holders'
                    assert store in observed, (profile, store)
                    _, holders, badge = observed[store]
                    assert count == (str(len(holders)) if badge.endswith("holders") else ""), (profile, store)
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
