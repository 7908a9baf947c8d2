"""Stores the console's tests read: runs recorded by gg itself (the spec-audit example, and the
crew run of many agents in `tests/console/crew/`), and the synthetic run written through the real
run store writer for the figures no run can produce yet (see `console.scenario`)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from console.scenario import RUN_ID, multi_agent_run
from console.store_writer import write_records
from gg.console.app import create_app

REPO = Path(__file__).resolve().parents[2]
CREW = Path(__file__).resolve().parent / "crew"
GG = Path(sys.executable).parent / "gg"


@pytest.fixture(scope="session")
def example_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The spec-audit example, run by `gg run` in a folder of its own (offline, replayed)."""
    return gg_run(tmp_path_factory.mktemp("example"), REPO / "examples" / "spec-audit").store


@dataclass(frozen=True)
class Recorded:
    """A run `gg run` recorded: its store and its id."""

    store: Path
    run_id: str


def gg_run(base: Path, example: Path) -> Recorded:
    """`gg run` on a copy of `example` (a capability set, its journal and workspace) in `base`."""
    shutil.copytree(example, base / example.name)
    done = subprocess.run(
        [str(GG), "run", example.name], cwd=base, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stdout + done.stderr
    store = base / ".gg" / "runs.db"
    with sqlite3.connect(store) as db:
        (run_id,) = db.execute("SELECT id FROM runs").fetchone()
    return Recorded(store, str(run_id))


@pytest.fixture(scope="session")
def crew_run(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """The crew run, recorded by `gg run` through the real loop and the JavaScript arm: a planner
    reads a skill, spawns two workers sharing a `shared` memories store, forks a copy, fetches,
    patches and hands over a failed program, and execs into the closer. What its agents hold is
    what `crew/gg.json` declares: a profile that enables a module kind makes its stores appear on
    every surface."""
    return gg_run(tmp_path_factory.mktemp("crew"), CREW)


@pytest.fixture(scope="session")
def multi_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("multi") / "runs.db"
    write_records(path, multi_agent_run("notes and <b>bold</b>")).close()
    return path


@pytest.fixture
def example_client(example_store: Path) -> TestClient:
    return TestClient(create_app(example_store))


@pytest.fixture
def multi_client(multi_store: Path) -> TestClient:
    return TestClient(create_app(multi_store))


MULTI_RUN = RUN_ID


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session's browser tests."""
    from playwright.sync_api import sync_playwright

    from console.browser import CHROMIUM_FLAGS, chromium_path

    executable = chromium_path()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(executable), args=list(CHROMIUM_FLAGS))
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()
