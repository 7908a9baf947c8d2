"""The console over a PostgreSQL store: the example run copied there reads as it reads from SQLite,
page for page; a server it cannot reach is refused before it serves."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from console.conftest import BothBackends
from console.test_routes import FILES, example_run
from gg.cli import main
from gg.console.app import create_app
from gg.telemetry.location import parse_store_url
from study.studies import arms_study
from support.postgres_server import PASSWORD, PostgresServer, free_port


def rows(page: str) -> list[str]:
    return re.findall(r'<a class="row run-link"[^>]*>(.*?)</a>', page, re.S)


def test_the_example_run_reads_the_same_from_postgresql(
    example_store: Path, both_backends: BothBackends
) -> None:
    on_sqlite, on_postgres = both_backends.sqlite, both_backends.postgres
    assert rows(on_postgres.get("/").text) == rows(on_sqlite.get("/").text) != []
    run = example_run(example_store)
    for file in FILES:
        page = on_postgres.get(f"/runs/{run}/instances/root/{file}")
        assert page.status_code == 200, file
        assert page.text == on_sqlite.get(f"/runs/{run}/instances/root/{file}").text


def test_gg_console_refuses_a_server_it_cannot_reach_exit_1() -> None:
    url = f"postgresql://gg:{PASSWORD}@127.0.0.1:{free_port()}/runs"
    result = CliRunner().invoke(main, ["console", "--store", url, "--port", str(free_port())])
    assert result.exit_code == 1
    assert "gg console: the run store postgresql://gg:***@127.0.0.1:" in result.output
    assert PASSWORD not in result.output


def test_gg_console_refuses_a_database_holding_no_store_exit_2(postgres: PostgresServer) -> None:
    url = postgres.fresh_database()
    result = CliRunner().invoke(main, ["console", "--port", str(free_port())], env={"GG_STORE": url})
    assert result.exit_code == 2 and "no run store at postgresql://gg:***@" in result.output


@pytest.mark.timeout(600)  # a whole (small) study of real runs
def test_a_study_run_on_postgresql_is_kept_there_and_shown_by_the_console(
    postgres: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.fresh_database()
    study = arms_study(tmp_path / "arms", repeats=1, tasks=("word-count",))
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, ["study", "run", str(study), "--parallel", "1", "--store", url])
    assert done.exit_code == 0, done.output
    listed = CliRunner().invoke(main, ["study", "list", "--json"], env={"GG_STORE": url})
    assert listed.exit_code == 0, listed.output
    (study_id,) = [row["id"] for row in json.loads(listed.output)["studies"]]
    client = TestClient(create_app(parse_store_url(url, base=tmp_path)), base_url="http://127.0.0.1")
    assert study_id in client.get("/studies").text
    page = client.get("/studies/latest")
    assert page.status_code == 200 and study_id in page.text
    assert not (tmp_path / ".gg" / "runs.db").exists()
