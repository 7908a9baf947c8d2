"""Stores the console's tests read, every one recorded by gg itself: the spec-audit example, and
the crew run of many agents in `tests/console/crew/` (its store, and its events for the folds).
The few hand-written streams left are `console.scenario`'s."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gg.console.app import create_app
from gg.console.source import RunSource

Records = list[dict[str, Any]]  # a run's events, as wire records
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
def crew_records(crew_run: Recorded) -> Records:
    """The crew run's events as the store holds them, for the folds that read a run's events."""
    return RunSource(crew_run.store).events(crew_run.run_id)


def written_until(records: Records, event_type: str, agent: str) -> Records:
    """The run as the console reads it while gg is still writing it: every event before the
    first `event_type` of `agent`."""
    cut = next(n for n, e in enumerate(records) if e["type"] == event_type and e["agentId"] == agent)
    return records[:cut]


def console_client(store: Path) -> TestClient:
    """The console over `store`, asked as a browser on loopback asks it (`Host: 127.0.0.1`): it
    answers no other name."""
    return TestClient(create_app(store), base_url="http://127.0.0.1")


@dataclass(frozen=True)
class BothBackends:
    """The example run's store, and a PostgreSQL database it was copied into (`gg store copy`): a
    console client on each."""

    sqlite: TestClient
    postgres: TestClient


@pytest.fixture
def both_backends(example_store: Path, request: pytest.FixtureRequest, tmp_path: Path) -> BothBackends:
    from click.testing import CliRunner

    from gg.cli import main
    from gg.telemetry.location import parse_store_url

    url = request.getfixturevalue("postgres").fresh_database()
    copied = CliRunner().invoke(main, ["store", "copy", str(example_store), url])
    assert copied.exit_code == 0, copied.output
    on_postgres = create_app(parse_store_url(url, base=tmp_path))
    return BothBackends(console_client(example_store), TestClient(on_postgres, base_url="http://127.0.0.1"))


@pytest.fixture
def example_client(example_store: Path) -> TestClient:
    return console_client(example_store)


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
