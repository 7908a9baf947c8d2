"""Stores the console's tests read: the example run recorded by gg itself, and the synthetic
multi-agent run written through the real run store writer."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from console.scenario import RUN_ID, multi_agent_run
from console.store_writer import write_records
from gg.console.app import create_app

REPO = Path(__file__).resolve().parents[2]
GG = Path(sys.executable).parent / "gg"


@pytest.fixture(scope="session")
def example_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The spec-audit example, run by `gg run` in a folder of its own (offline, replayed)."""
    base = tmp_path_factory.mktemp("example")
    shutil.copytree(REPO / "examples" / "spec-audit", base / "spec-audit")
    done = subprocess.run(
        [str(GG), "run", "spec-audit"], cwd=base, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return base / ".gg" / "runs.db"


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
