"""`gg query` and `gg schema --store` on a real PostgreSQL run store (the sample run copied into it
by `gg store copy`): the views answer with their documented columns and the same rows as on
SQLite; a write, a second statement and a query past its time bound are refused with the exit
codes and words they have on SQLite, and the store is left as it was."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner, Result

from gg.cli import main
from gg.record.query import run_query
from gg.record.query_answer import AnswerTooLarge, NotARead
from gg.record.store import RunStore
from gg.record.views import VIEWS
from gg.telemetry.location import StoreLocation, parse_store_url
from record.views_parity import assert_views_agree
from support.postgres_server import PASSWORD, PostgresServer, free_port
from telemetry.sample import RUN_ID, emit_sample_run

SLEEP = "SELECT pg_sleep(30)"


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Path:
    path = tmp_path / ".gg" / "runs.db"
    written = RunStore(path)
    emit_sample_run([written])
    written.close()
    return path


@pytest.fixture
def url(sqlite_store: Path, postgres: PostgresServer) -> str:
    url = postgres.fresh_database()
    copied = CliRunner().invoke(main, ["store", "copy", str(sqlite_store), url])
    assert copied.exit_code == 0, copied.output
    return url


@pytest.fixture
def folder(tmp_path: Path, url: str) -> Iterator[Path]:
    with contextlib.chdir(tmp_path):
        yield tmp_path


def gg(*args: str, url: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"GG_STORE": url})


def where_of(backend: str, sqlite_store: Path, request: pytest.FixtureRequest) -> Path | StoreLocation:
    if backend == "sqlite":
        return sqlite_store
    return parse_store_url(request.getfixturevalue("url"), base=sqlite_store.parent)


def test_each_view_answers_with_its_documented_columns_on_both_backends(
    backend: str, sqlite_store: Path, request: pytest.FixtureRequest
) -> None:
    where = where_of(backend, sqlite_store, request)
    for view in VIEWS:
        assert run_query(where, f"SELECT * FROM {view.name}").columns == view.column_names, view.name
    runs = run_query(where, "SELECT run_id, name, arm, model, status, turns, max_turns, max_cost FROM runs")
    assert runs.rows == [(RUN_ID, "spec-audit", "javascript", "gpt-test", "completed", 3, 10, None)]
    turns = run_query(
        where, "SELECT turn, outcome, error_turn, error_type, input_tokens FROM turns ORDER BY turn"
    )
    assert turns.rows[:2] == [(1, "progressed", 0, None, 1200), (2, "error", 1, "program_api_error", 1400)]


def test_every_view_holds_the_same_rows_on_both_backends(sqlite_store: Path, url: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        held = assert_views_agree(sqlite_store, connection)
    assert (held["runs"], held["turns"], held["studies"]) == (1, 3, 0)


@pytest.mark.parametrize(
    ("sql", "would"),
    [
        ("DELETE FROM public.events", "would delete;"),
        ("  /* a note */ (UPDATE public.runs SET status = 'completed')", "would update;"),
        (
            "WITH gone AS (DELETE FROM public.events RETURNING 1) SELECT * FROM gone",
            "would write inside a WITH;",
        ),
        ("SELECT * FROM public.runs FOR UPDATE", "would select for update;"),
        ("SET default_transaction_read_only = off", "would set;"),
        ("VACUUM", "would rewrite the store (VACUUM);"),
        ("VACUUM FULL public.events", "would rewrite the store (VACUUM);"),
    ],
)
def test_a_write_is_refused_exit_2_and_the_store_is_untouched(
    folder: Path, url: str, sql: str, would: str
) -> None:
    result = gg("query", sql, url=url)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"gg query: refused: gg query only reads, and this query {would}")
    assert gg("query", "SELECT COUNT(*) AS n FROM public.events", "--csv", url=url).stdout == "n\n25\n"


def test_a_second_statement_is_refused_before_the_first_runs(folder: Path, url: str) -> None:
    result = gg("query", "SELECT 1; DELETE FROM public.events", url=url)
    assert result.exit_code == 2
    assert result.stderr.startswith("gg query: gg query answers one statement at a time")
    with pytest.raises(NotARead, match="returns no rows"):
        run_query(parse_store_url(url, base=folder), "-- nothing but a comment")


def test_a_query_past_its_time_bound_is_stopped_exit_1(folder: Path, url: str) -> None:
    result = gg("query", SLEEP, "--timeout", "0.2", url=url)
    assert result.exit_code == 1
    assert result.stderr == (
        "gg query: the query ran past its time bound (0.2 s) and was stopped;"
        " --timeout SECONDS gives it longer\n"
    )


def test_the_row_bound_cuts_the_answer_and_says_so(folder: Path, url: str) -> None:
    table = gg("query", "SELECT x FROM generate_series(1, 5) AS x", "--limit", "2", url=url)
    assert table.exit_code == 0, table.output
    assert table.stdout.splitlines()[-1] == "2 rows; cut at the row bound (2); --limit N raises it"


def test_a_bad_query_names_postgresqls_error_and_every_views_columns(folder: Path, url: str) -> None:
    result = gg("query", "SELECT arm, programs FROM runs", "--store", url, url="")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == 'gg query: PostgreSQL cannot run this query: column "programs" does not exist'
    assert "  runs: run_id, name, arm, model, status, exit_code, turns," in result.stderr


def test_schema_with_store_prints_the_views_of_a_postgresql_store(folder: Path, url: str) -> None:
    result = gg("schema", "--store", url=url)
    assert result.exit_code == 0, result.output
    assert "api_calls: one SDK call a program made, once it returned" in result.stdout
    assert gg("schema", "--store", url, url="").stdout == result.stdout


def test_a_server_it_cannot_reach_exit_1_and_a_database_holding_no_store_exit_2(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    away = f"postgresql://gg:{PASSWORD}@127.0.0.1:{free_port()}/runs"
    unreached = gg("query", "SELECT 1", url=away)
    assert unreached.exit_code == 1
    assert "gg query: the run store postgresql://gg:***@127.0.0.1:" in unreached.stderr
    assert PASSWORD not in unreached.output
    empty = gg("query", "SELECT 1", url=postgres.fresh_database())
    assert empty.exit_code == 2 and "no run store at postgresql://gg:***@" in empty.stderr


def test_an_answer_of_more_than_64_mib_is_refused_as_it_is_fetched(url: str) -> None:
    where = parse_store_url(url, base=Path.cwd())
    with pytest.raises(AnswerTooLarge, match="more than 64 MiB"):
        run_query(where, "SELECT repeat('x', 1048576) FROM generate_series(1, 100)")
