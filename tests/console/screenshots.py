"""Screenshots of the recorded crew run in Chromium, for a person to look at: the runs page, every
tab, every file of the root's folder, one store of each kind and the Agents and Programs tabs.

    .venv/bin/python tests/console/screenshots.py [FOLDER]   # default: screenshots/ (gitignored)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

from playwright.sync_api import sync_playwright  # noqa: E402

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
        ("closer-overview", f"/runs/{run}/instances/root@2/overview"),
        ("worker-activity", f"/runs/{run}/instances/root.1/activity"),
        ("modules", f"/runs/{run}/modules"),
        ("modules-history", f"/runs/{run}/modules/kind/history"),
        ("store-history-0", f"/runs/{run}/modules/store/history-0"),
        ("store-skills-0", f"/runs/{run}/modules/store/skills-0"),
        ("agents", f"/runs/{run}/agents"),
        ("programs", f"/runs/{run}/programs"),
        ("unknown-run", "/runs/run-nope/instances"),
    ]
    return shots


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as base:
        recorded = gg_run(Path(base), CREW)
        with served(recorded.store) as url, sync_playwright() as playwright:
            chromium = str(chromium_path())
            browser = playwright.chromium.launch(executable_path=chromium, args=list(CHROMIUM_FLAGS))
            # the style below the fold is injected, so the strict policy is lifted for the camera only
            page = browser.new_page(viewport={"width": 1300, "height": 900}, bypass_csp=True)
            for number, (name, path) in enumerate(pages(recorded.run_id)):
                page.goto(url + path)
                page.add_style_tag(content=PAINT_ALL)
                target = folder / f"{number:02d}-{name}.png"
                page.screenshot(path=str(target), full_page=True)
                print(target)
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("screenshots"))
