"""Screenshots of the recorded crew run in Chromium, for a person to look at: the runs page, every
file of the root's folder, a few other instances' files, every tab the run offers, and each
kind's overview and first store.

    .venv/bin/python tests/console/screenshots.py [FOLDER]   # default: screenshots/ (gitignored)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from console.browser import CHROMIUM_FLAGS, chromium_path, served  # noqa: E402
from console.conftest import CREW, gg_run  # noqa: E402

FILES = ("overview", "prompt", "surface", "activity", "context", "requests", "metrics", "compaction")
PAINT_ALL = "*, *::before { content-visibility: visible !important; }"  # paint below the fold too


def pages(run: str) -> list[tuple[str, str]]:
    shots = [("runs", "/")]
    shots += [(f"root-{name}", f"/runs/{run}/instances/root/{name}") for name in FILES]
    shots += [
        ("root-modules-history", f"/runs/{run}/instances/root/modules/history"),
        ("root-modules-skills", f"/runs/{run}/instances/root/modules/skills"),
        ("root-modules-archive", f"/runs/{run}/instances/root/modules/archive"),
        ("closer-modules-tasks", f"/runs/{run}/instances/root@2/modules/tasks"),
        ("worker-modules-memories", f"/runs/{run}/instances/root.3/modules/memories"),
        ("store-tasks-0", f"/runs/{run}/modules/store/tasks-0"),
        ("store-board-0", f"/runs/{run}/modules/store/board-0"),
        ("store-memories-0", f"/runs/{run}/modules/store/memories-0"),
        ("closer-overview", f"/runs/{run}/instances/root@2/overview"),
        ("worker-activity", f"/runs/{run}/instances/root.1/activity"),
        ("store-history-0", f"/runs/{run}/modules/store/history-0"),
        ("unknown-run", "/runs/run-nope/instances"),
    ]
    return shots


def tabs_and_stores(page: Page, url: str, run: str) -> list[tuple[str, str]]:
    """Every tab the run offers, and each kind's overview and first store on the Modules tab (so a
    kind the crew comes to hold is photographed with the rest)."""
    page.goto(f"{url}/runs/{run}/instances")
    found = [
        (f"tab-{a.inner_text().strip().lower()}", a.get_attribute("href") or "")
        for a in page.locator("a.tab").all()
    ]
    if any(name == "tab-modules" for name, _ in found):
        page.goto(f"{url}/runs/{run}/modules")
        for folder in page.locator("nav.explorer details.folder").all():
            kind = (folder.get_attribute("id") or "kind-")[5:]
            links = folder.locator("a.file").all()
            found.append((f"modules-{kind}", links[0].get_attribute("href") or ""))
            if len(links) > 1:
                found.append((f"store-{kind}-first", links[1].get_attribute("href") or ""))
    return found


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as base:
        recorded = gg_run(Path(base), CREW)
        with served(recorded.store) as url, sync_playwright() as playwright:
            chromium = str(chromium_path())
            browser = playwright.chromium.launch(executable_path=chromium, args=list(CHROMIUM_FLAGS))
            # the style below the fold is injected, so the strict policy is lifted for the camera only
            page = browser.new_page(viewport={"width": 1300, "height": 900}, bypass_csp=True)
            shots = pages(recorded.run_id) + tabs_and_stores(page, url, recorded.run_id)
            for number, (name, path) in enumerate(shots):
                page.goto(url + path)
                page.add_style_tag(content=PAINT_ALL)
                target = folder / f"{number:02d}-{name}.png"
                page.screenshot(path=str(target), full_page=True)
                print(target)
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("screenshots"))
