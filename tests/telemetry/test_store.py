import signal
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from gg.record.reader import RunLookupError
from gg.record.runs import shown_status
from gg.record.store import RunStore
from gg.telemetry.emitter import CollectingSink, Telemetry
from gg.telemetry.events import RunStarted
from gg.telemetry.location import Backend, StoreLocation, parse_store_url
from gg.telemetry.schema import SCHEMA_VERSION
from gg.telemetry.store import RunStoreError, StoreWriter
from support.postgres_server import PostgresServer

from .sample import RUN_ID, StepClock, emit_sample_run

WRITER = Path(__file__).with_name("writer.py")


def start(store: RunStore, run_id: str, clock: StepClock) -> None:
    payload = RunStarted(
        name=run_id[-4:], config_path="", workspace="", model="m", language="python", limits={}
    )
    Telemetry(run_id, [store], clock=clock).emit("root", 0, payload)


@pytest.fixture
def store(store_at: StoreLocation) -> RunStore:
    return RunStore(store_at)


def named(where: StoreLocation) -> str:
    """The store as the writer script takes it: a folder, or a URL."""
    return str(where.path.parent.parent) if where.url is None else where.url


@pytest.fixture
def three_runs(store: RunStore) -> RunStore:
    clock = StepClock(step_ms=60_000)
    for run_id in ("run-20261129-203233-ab12", "run-20261129-213000-cd34", "run-20261130-080000-ab99"):
        start(store, run_id, clock)
    return store


def test_events_round_trip_through_the_run_store(store: RunStore) -> None:
    kept = CollectingSink()
    emit_sample_run([store, kept])
    assert store.events(RUN_ID) == kept.wire()


def test_the_store_lives_in_gg_runs_db_in_wal_mode_with_normal_sync(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    assert store.path == tmp_path / ".gg" / "runs.db"
    settings = store.settings()
    assert settings["journal_mode"] == "wal"
    assert settings["synchronous"] == 1
    assert settings["busy_timeout"] >= 5000
    with sqlite3.connect(store.path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_schema_version_is_kept_in_user_version(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    assert store.settings()["user_version"] == SCHEMA_VERSION >= 1


def test_a_store_written_by_a_newer_gg_is_refused_naming_both_versions(
    store_at: StoreLocation, store: RunStore
) -> None:
    store.close()
    writer = StoreWriter(store_at)
    with writer.connection() as db:
        writer.dialect.set_version(db, SCHEMA_VERSION + 1)
    writer.close()
    both = f"schema {SCHEMA_VERSION + 1} is newer than this gg \\({SCHEMA_VERSION}\\)"
    with pytest.raises(RunStoreError, match=both):
        RunStore(store_at)
    with pytest.raises(RunStoreError, match="newer"):
        RunStore(store_at, create=False)


def test_a_store_of_an_older_schema_is_upgraded_in_place(store_at: StoreLocation, store: RunStore) -> None:
    emit_sample_run([store])
    store.close()
    writer = StoreWriter(store_at)
    with writer.connection() as db:  # as a store no migration has touched: version 0, no run tables
        writer.dialect.set_version(db, 0)
        for table in ("events", "runs"):
            db.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
        for index in ("runs_by_start", "events_by_turn"):
            db.execute(f"DROP INDEX {index}")
    writer.close()
    upgraded = StoreWriter(store_at)
    with upgraded.connection() as db:
        assert upgraded.dialect.version(db) == SCHEMA_VERSION == 2
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM old_runs").fetchone()[0] == 1


def test_a_store_of_schema_1_gains_the_per_turn_index_in_place(
    store_at: StoreLocation, store: RunStore
) -> None:
    emit_sample_run([store])
    store.close()
    writer = StoreWriter(store_at)
    with writer.connection() as db:  # as schema 1 left it
        db.execute("DROP INDEX events_by_turn")
        db.execute("CREATE INDEX events_by_type ON events (run_id, type)")
        writer.dialect.set_version(db, 1)
    writer.close()
    upgraded = StoreWriter(store_at)
    with upgraded.connection() as db:
        assert upgraded.dialect.version(db) == 2
        assert _indexes(db, store_at) == {"events_by_turn"}
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 25
    upgraded.close()


def test_the_per_turn_views_find_a_turns_events_by_index(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    emit_sample_run([store])
    store.close()
    with sqlite3.connect(tmp_path / ".gg" / "runs.db") as db:
        plan = db.execute(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM events x WHERE x.run_id = ? AND x.type = ?"
            " AND x.agent_id = ? AND x.turn = ?",
            ("r", "model_reply", "root", 1),
        ).fetchall()
    assert "USING COVERING INDEX events_by_turn (run_id=? AND type=? AND agent_id=? AND turn=?)" in str(plan)


def _indexes(db: Any, where: StoreLocation) -> set[str]:
    if where.backend is Backend.SQLITE:
        listed = (
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL"
        )
    else:
        listed = "SELECT indexname FROM pg_indexes WHERE tablename = 'events' AND indexname <> 'events_pkey'"
    return {str(name) for (name,) in db.execute(listed).fetchall()}


def test_reading_where_no_store_exists_does_not_create_one(tmp_path: Path) -> None:
    with pytest.raises(RunStoreError):
        RunStore.at(tmp_path / "elsewhere", create=False)
    assert not (tmp_path / "elsewhere").exists()


def test_reading_a_database_that_holds_no_store_does_not_create_one(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.fresh_database()
    empty = parse_store_url(url, base=tmp_path)
    with pytest.raises(RunStoreError, match="no run store at postgresql://gg:\\*\\*\\*@"):
        RunStore(empty, create=False)
    with psycopg.connect(url) as db:
        assert db.execute("SELECT to_regclass('runs')").fetchone() == (None,)


def test_a_run_is_running_until_run_finished_writes_its_status(store: RunStore) -> None:
    emit_sample_run([store], finish=False)
    row = store.find_run(RUN_ID)
    assert (row.status, row.exit_code, row.finished_at, row.turns) == ("running", None, None, 2)
    assert (row.name, row.model, row.language) == ("spec-audit", "gpt-test", "javascript")


def test_run_finished_fills_the_runs_row(store: RunStore) -> None:
    emit_sample_run([store])
    row = store.find_run(RUN_ID)
    assert (row.status, row.exit_code, row.turns, row.duration_ms) == ("completed", 0, 3, 4500.0)
    assert row.final_text == "Audit done: 2 issues."
    assert row.finished_at is not None and row.events == len(store.events(RUN_ID))


def test_runs_are_listed_newest_first(three_runs: RunStore) -> None:
    ids = [row.id for row in three_runs.list_runs()]
    assert ids == ["run-20261130-080000-ab99", "run-20261129-213000-cd34", "run-20261129-203233-ab12"]
    assert len(three_runs.list_runs(limit=2)) == 2


def test_a_run_is_found_by_its_whole_id_or_a_unique_prefix(three_runs: RunStore) -> None:
    assert three_runs.find_run("run-20261129-213000-cd34").id == "run-20261129-213000-cd34"
    assert three_runs.find_run("run-20261130").id == "run-20261130-080000-ab99"
    assert three_runs.find_run("20261129-21").id == "run-20261129-213000-cd34"


def test_latest_and_last_name_the_newest_run(three_runs: RunStore) -> None:
    assert three_runs.find_run("latest").id == "run-20261130-080000-ab99"
    assert three_runs.find_run("last").id == "run-20261130-080000-ab99"


def test_an_ambiguous_prefix_names_the_runs_it_matches(three_runs: RunStore) -> None:
    with pytest.raises(RunLookupError, match="matches 2 runs") as refused:
        three_runs.find_run("20261129")
    assert "run-20261129-203233-ab12" in str(refused.value)


def test_an_unknown_reference_is_refused(three_runs: RunStore, store: RunStore) -> None:
    with pytest.raises(RunLookupError, match="no run matches"):
        three_runs.find_run("run-1999")
    with pytest.raises(RunLookupError, match="no run matches"):
        three_runs.find_run("")


def test_latest_in_an_empty_store_is_refused(store: RunStore) -> None:
    with pytest.raises(RunLookupError, match="no runs"):
        store.find_run("latest")


def test_a_running_row_whose_process_on_this_host_is_gone_shows_unfinished(store: RunStore) -> None:
    emit_sample_run([store], finish=False)
    row = store.find_run(RUN_ID)
    assert row.pid is not None and row.host
    assert shown_status(row, host=row.host, alive=lambda pid: True) == "running"
    assert shown_status(row, host=row.host, alive=lambda pid: False) == "unfinished"
    assert shown_status(row, host="another-host", alive=lambda pid: False) == "running"
    assert (
        shown_status(replace(row, status="completed"), host=row.host, alive=lambda pid: False) == "completed"
    )


def test_a_run_killed_with_sigkill_keeps_every_finished_turn(store_at: StoreLocation) -> None:
    writer = subprocess.Popen(
        [sys.executable, str(WRITER), named(store_at), "run-killed", "0", "20"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    reported = [writer.stdout.readline() for _ in range(25)]
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    assert reported[-1] == "turn 25\n"
    store = RunStore(store_at)
    if store_at.url is None:
        assert store.settings()["journal_mode"] == "wal"
        with sqlite3.connect(store.path) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    events = store.events("run-killed")
    outcomes = [e["turn"] for e in events if e["type"] == "turn_outcome"]
    assert outcomes[:25] == list(range(1, 26))
    assert [e["turn"] for e in events if e["type"] == "turn_outcome"] == sorted(set(outcomes))
    row = store.find_run("run-killed")
    assert row.status == "running" and row.turns >= 25 and row.events == len(events)
    assert shown_status(row) == "unfinished"


def start_together(
    where: StoreLocation, runs: list[str], turns: int, calls: int
) -> list[subprocess.Popen[str]]:
    """Start one writer per run; all of them open the store and write at the same moment."""
    go = where.path.parent.parent / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), named(where), run_id, str(turns), str(calls), str(go)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for run_id in runs
    ]
    for writer in writers:
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
    go.touch()
    for writer in writers:
        assert writer.wait(timeout=120) == 0
    return writers


def test_runs_opening_a_new_store_at_the_same_moment_all_succeed(store_at: StoreLocation) -> None:
    runs = [f"run-{n}" for n in range(8)]
    start_together(store_at, runs, turns=1, calls=0)
    store = RunStore(store_at)
    if store_at.url is None:
        assert store.settings()["journal_mode"] == "wal"
    assert sorted(row.id for row in store.list_runs()) == runs


def test_two_runs_writing_one_store_at_once_lose_nothing(store_at: StoreLocation) -> None:
    turns, calls = 150, 10
    start_together(store_at, ["run-a", "run-b"], turns, calls)
    store = RunStore(store_at)
    spans = []
    for run_id in ("run-a", "run-b"):
        events = store.events(run_id)
        assert [e["type"] for e in events].count("turn_outcome") == turns
        assert len(events) == 2 + turns * (5 + 2 * calls)
        assert store.find_run(run_id).status == "completed"
        spans.append((events[0]["timestamp"], events[-1]["timestamp"]))
    (a_start, a_end), (b_start, b_end) = spans
    assert a_start < b_end and b_start < a_end, "the two runs wrote at the same time"


def test_a_turn_counts_from_its_first_event_whether_or_not_it_reached_its_outcome(store: RunStore) -> None:
    from gg.telemetry.events import ModelRequest

    telemetry = Telemetry("run-cut", [store])
    started = RunStarted(
        name="cut", config_path="gg.json", workspace="ws", model="m", language="javascript", limits={}
    )
    telemetry.emit("root", 0, started)
    telemetry.emit("root", 1, ModelRequest(messages=[], request_index=1))
    telemetry.emit("root", 2, ModelRequest(messages=[], request_index=2))  # cut before its outcome
    assert store.find_run("run-cut").turns == 2


def test_eight_processes_writing_eight_runs_at_once_keep_every_event_once_in_order(
    store_at: StoreLocation,
) -> None:
    runs, turns, calls = [f"run-p{n}" for n in range(8)], 40, 3
    start_together(store_at, runs, turns, calls)
    store = RunStore(store_at)
    for run_id in runs:
        events = store.events(run_id)
        assert len(events) == 2 + turns * (5 + 2 * calls) == 442
        assert {e.run_id for e in events} == {run_id}
        outcomes = [e["turn"] for e in events if e["type"] == "turn_outcome"]
        assert outcomes == list(range(1, turns + 1))
        requests = [e["turn"] for e in events if e["type"] == "model_request"]
        assert requests == list(range(1, turns + 1))
        assert [e["timestamp"] for e in events] == sorted(e["timestamp"] for e in events)
        row = store.find_run(run_id)
        assert (row.status, row.events, row.turns) == ("completed", 442, 40)


def test_a_postgresql_store_commits_each_event_without_waiting_for_the_disk_as_sqlite_does(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    writer = StoreWriter(parse_store_url(postgres.fresh_database(), base=tmp_path))
    with writer.connection() as db:
        assert db.execute("SHOW synchronous_commit").fetchone()[0] == "off"
        assert db.execute("SHOW transaction_read_only").fetchone()[0] == "off"
    writer.close()
