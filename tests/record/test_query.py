"""A query of a real SQLite run store: it reads the views, and anything more than one read is
refused by SQLite itself (authorizer, `query_only`, `mode=ro`), the store left byte for byte as it
was; the row bound cuts and says so, the time bound stops a query that would never end."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from gg.record.query import open_for_queries, run_query
from gg.record.query_answer import AnswerTooLarge, BadQuery, NotARead, PastTimeBound, QueryError
from gg.record.store import RunStore
from gg.record.views import VIEWS
from support.mounts import remount, tmpfs
from telemetry.sample import RUN_ID, emit_sample_run

ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT MAX(x) FROM c"
REFUSED_READS = (
    "INSERT INTO main.events (run_id, seq, type, agent_id, turn, timestamp, json)"
    " VALUES ('r', 0, 'log', 'root', 0, 't', '{}')",
    "UPDATE main.runs SET status = 'completed'",
    "DELETE FROM main.events",
    "DROP TABLE main.events",
    "CREATE TABLE main.notes (a)",
    "CREATE TEMP TABLE notes (a)",
    "ATTACH DATABASE ':memory:' AS other",
    "PRAGMA user_version = 9",
    "PRAGMA journal_mode = DELETE",
    "PRAGMA query_only = OFF",
    "BEGIN IMMEDIATE",
    "SELECT load_extension('x')",
)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / ".gg" / "runs.db"
    written = RunStore(path)
    emit_sample_run([written])
    written.close()
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_each_view_answers_with_its_documented_columns(store: Path) -> None:
    db, _ = open_for_queries(store)
    for view in VIEWS:
        cursor = db.execute(f"SELECT * FROM {view.name}")
        assert tuple(d[0] for d in cursor.description) == view.column_names
    db.close()


def test_the_sample_run_reads_back_through_the_views(store: Path) -> None:
    runs = run_query(store, "SELECT run_id, name, arm, model, status, turns, max_turns, max_cost FROM runs")
    assert runs.rows == [(RUN_ID, "spec-audit", "javascript", "gpt-test", "completed", 3, 10, None)]
    turns = run_query(
        store, "SELECT turn, outcome, error_turn, error_type, input_tokens FROM turns ORDER BY turn"
    )
    assert turns.rows[:2] == [(1, "progressed", 0, None, 1200), (2, "error", 1, "program_api_error", 1400)]
    calls = run_query(store, "SELECT operation, ok, failure, duration_ms FROM api_calls ORDER BY returned_at")
    assert calls.rows[:2] == [("files.read_file", 1, None, 250.0), ("files.edit_file", 0, "conflict", 250.0)]


def test_a_store_with_no_study_has_empty_study_views(store: Path) -> None:
    for name in ("studies", "cells"):
        assert run_query(store, f"SELECT * FROM {name}").rows == []


@pytest.mark.parametrize("sql", REFUSED_READS)
def test_anything_but_a_read_is_refused_and_the_store_is_untouched(store: Path, sql: str) -> None:
    before = _digest(store)
    with pytest.raises(NotARead, match="gg query only reads"):
        run_query(store, sql)
    assert _digest(store) == before
    assert run_query(store, "SELECT COUNT(*) FROM main.events").rows == [(25,)]


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("BEGIN", "would begin or end a transaction (BEGIN)"),
        ("PRAGMA table_info('runs')", "would run a PRAGMA (table_info)"),
        ("SELECT * FROM pragma_table_info('runs')", "would change the schema (sqlite_master)"),
        ("ATTACH DATABASE ':memory:' AS other", "would attach a database (:memory:)"),
        ("CREATE TEMP TABLE x (a)", "would change the schema (sqlite_temp_master)"),
        ("INSERT INTO main.events SELECT * FROM main.events", "would insert (events)"),
    ],
)
def test_a_refusal_names_what_the_query_would_do_in_words(store: Path, sql: str, named: str) -> None:
    with pytest.raises(NotARead) as refused:
        run_query(store, sql)
    assert f"gg query only reads, and this query {named};" in str(refused.value)


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("VACUUM", "would rewrite the store (VACUUM);"),
        ("VACUUM main", "would rewrite the store (VACUUM);"),
        ("VACUUM INTO '{copy}'", "would write a copy of the store to a file ({copy});"),
        ("vacuum main into '{copy}'", "would write a copy of the store to a file ({copy});"),
    ],
)
def test_a_vacuum_is_refused_as_what_it_would_do_and_writes_nothing(
    store: Path, tmp_path: Path, sql: str, named: str
) -> None:
    copy = tmp_path / "copy.db"
    before = _digest(store)
    with pytest.raises(NotARead) as refused:
        run_query(store, sql.format(copy=copy))
    assert f"gg query only reads, and this query {named.format(copy=copy)}" in str(refused.value)
    assert "attach" not in str(refused.value)
    assert not copy.exists()
    assert _digest(store) == before


def test_writing_to_a_view_is_refused(store: Path) -> None:
    with pytest.raises(QueryError, match="cannot modify runs because it is a view"):
        run_query(store, "DELETE FROM runs")


def test_a_second_statement_is_refused_before_the_first_runs(store: Path) -> None:
    before = _digest(store)
    with pytest.raises(NotARead, match="one statement at a time"):
        run_query(store, "SELECT 1; DELETE FROM main.events")
    assert _digest(store) == before


def test_a_query_that_would_never_end_is_stopped_at_its_time_bound(store: Path) -> None:
    with pytest.raises(PastTimeBound, match=r"ran past its time bound \(0.3 s\)"):
        run_query(store, ENDLESS, seconds=0.3)


def test_the_time_bound_is_read_from_the_clock_it_is_given(store: Path) -> None:
    ticks = iter(range(0, 10_000, 10))
    with pytest.raises(PastTimeBound):
        run_query(store, ENDLESS, seconds=5, clock=lambda: float(next(ticks)))


def test_a_value_longer_than_64_mib_is_refused_before_sqlite_makes_it(store: Path) -> None:
    with pytest.raises(AnswerTooLarge, match="more than 64 MiB of text and bytes"):
        run_query(store, "SELECT zeroblob(1000000000)")


def test_an_answer_whose_values_hold_more_than_64_mib_together_is_refused(store: Path) -> None:
    mebibytes = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT zeroblob(1048576) FROM c"
    )
    with pytest.raises(AnswerTooLarge):
        run_query(store, mebibytes, rows=1_000)
    assert len(run_query(store, mebibytes, rows=60).rows) == 60


def test_a_row_bound_past_what_a_c_int_holds_is_only_a_bound(store: Path) -> None:
    assert run_query(store, "SELECT 1", rows=10**20).rows == [(1,)]


def test_the_row_bound_cuts_the_answer_and_says_so(store: Path) -> None:
    counted = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1500) SELECT x FROM c"
    cut = run_query(store, counted)
    assert (len(cut.rows), cut.limit, cut.truncated) == (1000, 1000, True)
    whole = run_query(store, counted, rows=1500)
    assert (len(whole.rows), whole.truncated) == (1500, False)


def test_a_bad_query_names_sqlites_error(store: Path) -> None:
    with pytest.raises(BadQuery, match="no such column: nope"):
        run_query(store, "SELECT nope FROM runs")
    with pytest.raises(BadQuery, match="syntax error"):
        run_query(store, "SELEKT 1")


def test_text_returning_no_rows_is_refused(store: Path) -> None:
    with pytest.raises(NotARead, match="returns no rows"):
        run_query(store, "-- nothing but a comment")


def test_a_missing_store_is_not_made(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        run_query(tmp_path / "runs.db", "SELECT 1")
    assert not (tmp_path / "runs.db").exists()


def test_a_query_connection_reads_a_store_being_written(store: Path) -> None:
    writer = sqlite3.connect(store)
    writer.execute("PRAGMA journal_mode = WAL")
    answer = run_query(store, "SELECT COUNT(*) FROM runs")
    writer.close()
    assert answer.rows == [(1,)]


def test_a_store_on_a_read_only_mount_is_queried(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "16m") as folder:
        written = RunStore(folder / "runs.db")
        emit_sample_run([written])
        written.close()
        remount(folder, "ro")
        answer = run_query(folder / "runs.db", "SELECT COUNT(*), SUM(error_turn) FROM turns")
        remount(folder, "rw")
    assert answer.rows == [(3, 1)]
