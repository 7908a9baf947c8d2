"""A run being written shows its new turns in an open page within 2 s, without a reload."""

from __future__ import annotations

import os
import time
from pathlib import Path

from playwright.sync_api import expect

from console.browser import served
from console.scenario import Recorder
from console.store_writer import as_event
from gg.telemetry.store import RunStore

LIVE_WITHIN_MS = 2000
RUN = "run-20260101-000000-live"


def opening(r: Recorder) -> None:
    r.emit(
        "run_started",
        name="live",
        configPath="live.json",
        workspace="/ws",
        model="replay",
        language="javascript",
        limits={},
    )
    r.turn("root", 1, "first turn", system="You are watched.")


def test_new_turns_of_a_running_run_appear_without_a_reload(tmp_path: Path, page):
    path = tmp_path / "runs.db"
    r = Recorder(run_id=RUN)
    opening(r)
    store = RunStore(path, pid=os.getpid())  # this process is alive: the run reads as running
    try:
        for record in r.records:
            store.write(as_event(record))
        with served(path) as base:
            page.goto(f"{base}/runs/{RUN}/instances/root/activity")
            expect(page.locator("#turn-1")).to_be_visible()
            assert page.locator("#turn-2").count() == 0
            expect(page.locator(".run-head .status")).to_have_text("running")
            page.evaluate("window.__sameDocument = true")
            written = len(r.records)
            r.turn("root", 2, "second turn")
            started = time.monotonic()
            for record in r.records[written:]:
                store.write(as_event(record))
            # the turn's events land one by one: wait until its reply has arrived too
            expect(page.locator("#turn-2")).to_contain_text("reply: second turn", timeout=LIVE_WITHIN_MS)
            shown_after = time.monotonic() - started
            assert page.evaluate("window.__sameDocument === true")  # no reload: the same document
            store.write(
                as_event(
                    {
                        **r.records[-1],
                        "type": "run_finished",
                        "status": "completed",
                        "exitCode": 0,
                        "turns": 2,
                        "durationMs": 10.0,
                    }
                )
            )
            expect(page.locator(".run-head .status")).to_have_text("completed", timeout=LIVE_WITHIN_MS)
    finally:
        store.close()
    assert shown_after < LIVE_WITHIN_MS / 1000


def test_the_runs_page_shows_a_running_run_as_live_and_a_new_run_as_it_starts(tmp_path: Path, page):
    path = tmp_path / "runs.db"
    r = Recorder(run_id=RUN)
    opening(r)
    store = RunStore(path, pid=os.getpid())
    try:
        for record in r.records:
            store.write(as_event(record))
        with served(path) as base:
            page.goto(base + "/")
            expect(page.locator("a.row.live .status")).to_have_text("running")
            expect(page.locator("a.row.live .pulse")).to_have_count(1)
            other = Recorder(run_id="run-20260101-000001-next")
            other.emit(
                "run_started",
                name="next one",
                configPath="n.json",
                workspace="/ws",
                model="replay",
                language="python",
                limits={},
            )
            for record in other.records:
                store.write(as_event(record))
            expect(page.get_by_text("next one")).to_be_visible(timeout=LIVE_WITHIN_MS)
    finally:
        store.close()
