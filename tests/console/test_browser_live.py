"""A run being written shows its new turns in an open page within 2 s, without a reload: records
written through the run store's writer, and a run `gg run` is recording in another process."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import expect

from console.browser import served
from console.conftest import GG
from console.scenario import Recorder
from console.store_writer import as_event
from gg.record.store import RunStore
from gg.telemetry.clock import parse_timestamp

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


SLOW_TURN = (
    'import { views } from "gg";\n'
    "const until = Date.now() + 1500;\n"
    "while (Date.now() < until) {}\n"
    'views.openText("waited", "{n}");\n'
)


def slow_run(folder: Path) -> Path:
    """A run `gg run` records over several seconds: three turns of 1.5 s programs, then the end."""
    folder.mkdir()
    (folder / "workspace").mkdir()
    code = {"id": "responses-as-code", "params": {"language": "javascript", "timeoutSecs": 30}}
    root = {"slug": "root", "task": "Wait.", "model": {"provider": "replay", "journal": "journal.jsonl"}}
    document = {"name": "slow", "agents": [{**root, "capabilities": [code]}]}
    (folder / "gg.json").write_text(json.dumps(document), encoding="utf-8")
    programs = [SLOW_TURN.replace("{n}", str(n)) for n in (1, 2, 3)]
    programs.append('import { session } from "gg";\nsession.finish("waited");\n')
    lines = [
        {"text": f"reply {n}", "calls": [{"name": "submit_program", "arguments": {"program": source}}]}
        for n, source in enumerate(programs, start=1)
    ]
    (folder / "journal.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )
    return folder


def reply_written_at(store: Path, turn: int) -> datetime:
    with sqlite3.connect(store) as db:
        (text,) = db.execute(
            "SELECT json FROM events WHERE type = 'model_reply' AND turn = ? ORDER BY seq LIMIT 1", (turn,)
        ).fetchone()
    moment = parse_timestamp(json.loads(text)["timestamp"])
    assert moment is not None
    return moment


def test_a_run_gg_is_recording_shows_each_new_turn_within_2_s_of_its_reply(tmp_path: Path, page):
    slow_run(tmp_path / "slow")
    store = tmp_path / ".gg" / "runs.db"
    running = subprocess.Popen(
        [str(GG), "run", "slow"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while not store.is_file() or not _has_reply(store, 1):
            assert running.poll() is None and time.monotonic() < deadline, "the run did not start"
            time.sleep(0.05)
        with served(store) as base:
            with sqlite3.connect(store) as db:
                (run_id,) = db.execute("SELECT id FROM runs").fetchone()
            page.goto(f"{base}/runs/{run_id}/instances/root/activity")
            expect(page.locator(".run-head .status")).to_have_text("running")
            page.evaluate("window.__sameDocument = true")
            late: dict[int, float] = {}
            for turn in (2, 3):
                expect(page.locator(f"#turn-{turn}")).to_contain_text(f"reply {turn}", timeout=60_000)
                late[turn] = (datetime.now(UTC) - reply_written_at(store, turn)).total_seconds()
            expect(page.locator(".run-head .status")).to_have_text("completed", timeout=60_000)
            assert page.evaluate("window.__sameDocument === true")  # no reload: the same document
    finally:
        running.wait(timeout=60)
    assert running.returncode == 0
    assert all(seconds < LIVE_WITHIN_MS / 1000 for seconds in late.values()), late


def _has_reply(store: Path, turn: int) -> bool:
    try:
        with sqlite3.connect(store) as db:
            row = db.execute(
                "SELECT 1 FROM events WHERE type = 'model_reply' AND turn = ?", (turn,)
            ).fetchone()
    except sqlite3.OperationalError:  # the store's tables are not made yet
        return False
    return row is not None
