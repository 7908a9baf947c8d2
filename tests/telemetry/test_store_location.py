"""Where a run store is: a path, `sqlite:///`, `postgresql://`, or `GG_STORE`; a location gg cannot
read is a usage error (exit 2), and a password is never printed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import gg
from gg.cli import main
from gg.record.store import RunStore
from gg.telemetry.location import Backend, BadStoreUrl, parse_store_url, store_location, without_password
from support.postgres_server import PASSWORD, PostgresServer

from .sample import RUN_ID, emit_sample_run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"


def test_a_path_or_an_sqlite_url_names_an_sqlite_file(tmp_path: Path) -> None:
    assert parse_store_url(tmp_path, base=tmp_path).path == tmp_path / ".gg" / "runs.db"
    assert parse_store_url(f"sqlite:///{tmp_path}/team.db", base=tmp_path).path == tmp_path / "team.db"
    assert parse_store_url("sqlite:///rel/runs.db", base=tmp_path).path == Path("rel/runs.db")
    assert parse_store_url(str(tmp_path / "x.db"), base=tmp_path).backend is Backend.SQLITE


def test_a_postgresql_url_keeps_its_local_copies_under_the_working_folder(tmp_path: Path) -> None:
    where = parse_store_url("postgresql://ann:pw@db.example:5433/runs", base=tmp_path)
    assert (where.backend, where.path) == (Backend.POSTGRESQL, tmp_path / ".gg" / "runs.db")
    assert where.shown == "postgresql://ann:***@db.example:5433/runs"
    assert parse_store_url("postgres://db.example/runs", base=tmp_path).backend is Backend.POSTGRESQL


def test_nothing_given_is_gg_store_else_this_folder(tmp_path: Path) -> None:
    assert store_location(None, base=tmp_path, environ={}).path == tmp_path / ".gg" / "runs.db"
    named = store_location(None, base=tmp_path, environ={"GG_STORE": "postgresql://h/db"})
    assert named.url == "postgresql://h/db"
    given = store_location(str(tmp_path / "a.db"), base=tmp_path, environ={"GG_STORE": "postgresql://h/db"})
    assert given.path == tmp_path / "a.db"


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://root:hunter2@h/db", "mysql://root:***@h/db is no run store gg reads"),
        ("postgresql://ann:hunter2@/runs", "lacks a host"),
        ("postgresql://ann:hunter2@h", "lacks a database"),
        ("postgresql://ann:hunter2@h:99999/db", "no PostgreSQL URL gg reads"),
    ],
)
def test_a_location_gg_cannot_read_is_refused_without_its_password(
    url: str, said: str, tmp_path: Path
) -> None:
    with pytest.raises(BadStoreUrl, match=said.replace("*", "\\*")) as refused:
        parse_store_url(url, base=tmp_path)
    assert "hunter2" not in str(refused.value)


def test_an_unencoded_at_sign_in_a_password_is_refused_and_no_part_of_it_shown(tmp_path: Path) -> None:
    url = "postgresql://gg:pa@ss@127.0.0.1:1/x"
    with pytest.raises(BadStoreUrl) as refused:
        parse_store_url(url, base=tmp_path)
    said = str(refused.value)
    assert said == ("postgresql://gg:***@127.0.0.1:1/x holds an @ in its user or password: write it %40")
    result = CliRunner().invoke(main, ["runs", "--store", url])
    assert result.exit_code == 2 and "pa@" not in result.output and "ss@" not in result.output, result.output


def test_a_password_is_replaced_and_a_url_without_one_kept() -> None:
    assert (
        without_password("postgresql://u:p%40ss@h:1/d?sslmode=require")
        == "postgresql://u:***@h:1/d?sslmode=require"
    )
    assert without_password("postgresql://u@h/d") == "postgresql://u@h/d"


def test_a_bad_store_url_is_a_usage_error_on_every_reading_command(tmp_path: Path) -> None:
    for command in (["runs"], ["show", "latest"]):
        result = CliRunner().invoke(main, [*command, "--store", "mysql://root:hunter2@h/db"])
        assert result.exit_code == 2, result.output
        assert "mysql://root:***@h/db is no run store gg reads" in result.output
        assert "hunter2" not in result.output
    named = CliRunner().invoke(main, ["runs"], env={"GG_STORE": "redis://h/0"})
    assert named.exit_code == 2 and "GG_STORE: redis://h/0 is no run store" in named.output


def test_gg_run_refuses_a_bad_store_url_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = tmp_path / "spec-audit"
    shutil.copytree(EXAMPLE, example, ignore=shutil.ignore_patterns("report.md"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", str(example), "--store", "ftp://h/x"])
    assert result.exit_code == 2 and "ftp://h/x is no run store gg reads" in result.output
    assert not (tmp_path / ".gg").exists()
    with pytest.raises(gg.ConfigError, match="ftp://h/x is no run store"):
        gg.run(example, store="ftp://h/x")


def test_the_reading_commands_and_open_store_read_the_store_a_url_or_gg_store_names(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.fresh_database()
    store = RunStore(parse_store_url(url, base=tmp_path))
    emit_sample_run([store])
    store.close()
    listed = CliRunner().invoke(main, ["runs", "--json", "--store", url])
    assert listed.exit_code == 0, listed.output
    assert [run["id"] for run in json.loads(listed.output)["runs"]] == [RUN_ID]
    shown = CliRunner().invoke(main, ["show", "latest", "--json"], env={"GG_STORE": url})
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["run"]["id"] == RUN_ID
    with gg.open_store(url) as opened:
        assert [run.status for run in opened.runs()] == ["completed"]
        assert opened.run("latest").events()[0].run_id == RUN_ID
    assert PASSWORD in url


def test_an_empty_database_has_no_runs_yet(postgres: PostgresServer) -> None:
    url = postgres.fresh_database()
    result = CliRunner().invoke(main, ["runs", "--store", url])
    assert result.exit_code == 0 and result.output.startswith(
        "no runs yet: no run store at postgresql://gg:***@"
    )
    with pytest.raises(FileNotFoundError, match="no run store at"):
        gg.open_store(url)


def test_a_password_given_as_libpqs_query_parameter_is_replaced_too() -> None:
    assert (
        without_password("postgresql://u@127.0.0.1:5999/x?password=topsecret&sslmode=off")
        == "postgresql://u@127.0.0.1:5999/x?password=***&sslmode=off"
    )
    refused = CliRunner().invoke(main, ["runs", "--store", "postgresql://u@127.0.0.1:1/x?password=topsecret"])
    assert refused.exit_code == 1 and "password=***" in refused.output
    assert "topsecret" not in refused.output


def test_an_sqlite_url_naming_no_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(BadStoreUrl, match="sqlite:/// names no file"):
        parse_store_url("sqlite:///", base=tmp_path)
    refused = CliRunner().invoke(main, ["store", "copy", str(tmp_path), "sqlite:///"])
    assert refused.exit_code == 2 and "sqlite:/// names no file" in refused.output


def test_store_rebuild_reads_gg_store_and_refuses_a_postgresql_url_without_its_password(
    tmp_path: Path,
) -> None:
    refused = CliRunner().invoke(main, ["store", "rebuild", "--store", "postgresql://a:pw@127.0.0.1:5999/d"])
    assert refused.exit_code == 2, refused.output
    assert "postgresql://a:***@127.0.0.1:5999/d is a PostgreSQL store" in refused.output
    assert ":pw@" not in refused.output
    empty = tmp_path / "elsewhere" / "runs.db"
    named = CliRunner().invoke(main, ["store", "rebuild"], env={"GG_STORE": f"sqlite:///{empty}"})
    assert named.exit_code == 2 and str(empty) in named.output
