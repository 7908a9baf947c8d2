"""`gg query` and `gg schema --store` on a real run store: the answer as a table, JSON or CSV; the
row bound said; a write, a bad query and a query past its time bound refused with their exit
codes; the views and their columns' meanings printed."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gg.cli import main
from gg.record.store import RunStore
from telemetry.sample import RUN_ID, emit_sample_run

ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT MAX(x) FROM c"


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    written = RunStore(tmp_path / ".gg" / "runs.db")
    emit_sample_run([written])
    written.close()
    with contextlib.chdir(tmp_path):
        yield tmp_path


def gg(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_the_answer_prints_as_a_table(folder: Path) -> None:
    result = gg("query", "SELECT turn, outcome, error_type FROM turns ORDER BY turn")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["turn", "outcome", "error_type"]
    assert lines[2].split() == ["2", "error", "program_api_error"]
    assert lines[1].split() == ["1", "progressed", "NULL"]
    assert lines[-1] == "3 rows"


def test_the_answer_prints_as_json_and_csv(folder: Path) -> None:
    result = gg("query", "SELECT run_id, turns, final_text FROM runs", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document == {
        "schema": 1,
        "columns": ["run_id", "turns", "final_text"],
        "rows": [[RUN_ID, 3, "Audit done: 2 issues."]],
        "limit": 1000,
        "truncated": False,
    }
    csv = gg("query", "SELECT turn, error_type FROM turns ORDER BY turn", "--csv")
    assert csv.stdout == "turn,error_type\n1,\n2,program_api_error\n3,\n"
    both = gg("query", "SELECT 1", "--json", "--csv")
    assert both.exit_code == 2 and "choose one" in both.output


def test_the_row_bound_is_said_where_it_cuts(folder: Path) -> None:
    table = gg("query", "SELECT turn FROM turns", "--limit", "2")
    assert table.exit_code == 0
    assert table.stdout.splitlines()[-1] == "2 rows; cut at the row bound (2); --limit N raises it"
    data = json.loads(gg("query", "SELECT turn FROM turns", "--limit", "2", "--json").stdout)
    assert (len(data["rows"]), data["truncated"]) == (2, True)
    csv = gg("query", "SELECT turn FROM turns", "--limit", "2", "--csv")
    assert csv.stdout == "turn\n1\n2\n"
    assert "cut at the row bound (2)" in csv.stderr


def test_a_write_is_refused_exit_2(folder: Path) -> None:
    result = gg("query", "DELETE FROM main.events")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "gg query: refused: gg query only reads, and this query would delete (events)"
    )
    assert gg("query", "SELECT COUNT(*) FROM main.events", "--csv").stdout == "COUNT(*)\n25\n"


def test_a_bad_query_names_the_error_and_every_views_columns(folder: Path) -> None:
    result = gg("query", "SELECT arm, programs FROM runs")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "gg query: SQLite cannot run this query: no such column: programs"
    assert "  runs: run_id, name, arm, model, status, exit_code, turns," in result.stderr
    named = {line.split(":")[0].strip() for line in lines[2:]}
    expected = {
        "runs",
        "agents",
        "turns",
        "programs",
        "chain_links",
        "api_calls",
        "modules",
        "studies",
        "cells",
    }
    assert named == expected


def test_a_query_past_its_time_bound_is_stopped_exit_1(folder: Path) -> None:
    result = gg("query", ENDLESS, "--timeout", "0.2")
    assert result.exit_code == 1
    assert result.stderr == (
        "gg query: the query ran past its time bound (0.2 s) and was stopped;"
        " --timeout SECONDS gives it longer\n"
    )


def test_a_long_value_shows_its_start_in_the_table_and_whole_in_json(folder: Path) -> None:
    table = gg("query", "SELECT zeroblob(5000000) AS blob, 'one' || char(10) || 'two' AS text")
    assert table.exit_code == 0
    assert "b'\\x00\\x00" in table.stdout and "one" in table.stdout and "two" not in table.stdout
    assert "long texts cut to their first line" in table.stdout
    whole = gg("query", "SELECT zeroblob(5000000) AS blob", "--json")
    assert json.loads(whole.stdout)["rows"] == [["00" * 5000000]]


def test_an_answer_past_its_size_bound_is_stopped_exit_1(folder: Path) -> None:
    result = gg("query", "SELECT zeroblob(1000000000)")
    assert result.exit_code == 1 and "gg query: the answer holds more than 64 MiB" in result.stderr


def test_a_store_option_naming_no_store_is_refused(folder: Path) -> None:
    result = gg("query", "SELECT 1", "--store", str(folder / "elsewhere"))
    assert result.exit_code == 2
    assert "there is no run store at" in result.stderr
    assert not (folder / "elsewhere").exists()
    assert gg("query", "SELECT COUNT(*) FROM runs", "--store", str(folder), "--csv").stdout == "COUNT(*)\n1\n"


def test_schema_with_store_prints_each_view_and_each_columns_meaning(folder: Path) -> None:
    result = gg("schema", "--store")
    assert result.exit_code == 0, result.output
    assert "runs: one run" in result.stdout
    assert "api_calls: one SDK call a program made, once it returned" in result.stdout
    assert any(line.split()[:3] == ["max_turns", "the", "limit"] for line in result.stdout.splitlines())
    assert gg("schema", "--store", str(folder / ".gg")).stdout == result.stdout
    missing = gg("schema", "--store", str(folder / "none"))
    assert missing.exit_code == 2 and "there is no run store at" in missing.stderr
    assert json.loads(gg("schema").stdout)["$schema"].startswith("https://json-schema.org/")


def test_the_readme_lists_every_view_and_every_column() -> None:
    from gg.record.views import VIEWS

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in readme.splitlines() if line.startswith("| `")}
    for view in VIEWS:
        row = rows[f"`{view.name}`"]
        missing = [name for name in view.column_names if f"`{name}`" not in row]
        assert missing == [], view.name
