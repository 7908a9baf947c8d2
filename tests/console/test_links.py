"""No broken link: every example gg ships is run by gg into one store, the console serves it on
loopback, and a crawler follows every link of every page (every run, every tab, every study)."""

from __future__ import annotations

import html
import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import httpx2 as httpx
import pytest

from console.browser import served
from console.conftest import GG, REPO
from console.crawl import crawl

pytestmark = pytest.mark.timeout(600)  # every example run, then some 300 pages, on a shared machine
EXAMPLES = REPO / "examples"
ELEMENT_ID = re.compile(r'\bid="([^"]*)"')


def record_every_example(base: Path) -> Path:
    """Each example run as the README runs it, in `base`: a study (`study.toml`) by `gg study
    run`, a Python API example (`run.py`) by `gg run` with its modules importable, any other by
    `gg run`. The store they share."""
    for example in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        shutil.copytree(example, base / example.name)
        env = dict(os.environ)
        if (example / "study.toml").is_file():
            command = [str(GG), "study", "run", example.name]
        else:
            command = [str(GG), "run", example.name]
            if (example / "run.py").is_file():
                env["PYTHONPATH"] = str(base / example.name)
        done = subprocess.run(command, cwd=base, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{example.name}: {done.stdout}{done.stderr}"
    return base / ".gg" / "runs.db"


def test_no_link_on_any_page_of_any_examples_run_is_broken(tmp_path: Path):
    store = record_every_example(tmp_path)
    with sqlite3.connect(store) as db:
        runs = {run_id: name for run_id, name in db.execute("SELECT id, name FROM runs")}
    statuses: dict[str, int] = {}
    with served(store) as base:

        def visit(path: str) -> str:
            answer = httpx.get(base + path, timeout=60, follow_redirects=True)
            statuses[path] = answer.status_code
            return answer.text

        pages, links = crawl("/", visit)
    names = {name.split(" ")[0] for name in runs.values()}
    assert names == {"spec-audit", "review-loop", "planner", "python-api", "study-arms", "mcp-notes"}
    assert {f"/runs/{run_id}/agents" for run_id in runs} <= set(pages)  # every run's tabs were read
    assert "/studies" in pages and len(links) > 5000
    broken = [
        f"{link.page} → {link.href}: {statuses[link.path]}" for link in links if statuses[link.path] != 200
    ]
    assert broken == []
    ids = {path: {html.unescape(found) for found in ELEMENT_ID.findall(text)} for path, text in pages.items()}
    unanchored = [
        f"{link.page} → {link.href}"
        for link in links
        if link.fragment and link.fragment not in ids[link.path]
    ]
    assert unanchored == []
