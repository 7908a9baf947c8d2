"""A PostgreSQL store that cannot be reached: a refused connection, a wrong password, a server that
goes away mid-run. Each is one clear line naming the URL without its password, exit 1; the run
ends `internal_error`, never `completed`; its local NDJSON copy keeps every event, and
`gg store copy` restores them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.store import RunStore
from gg.telemetry.events import Event, EventType
from gg.telemetry.location import parse_store_url
from gg.telemetry.ndjson import NdjsonSink, read_events
from runs.session import program, run_session
from support.postgres_server import PASSWORD, PostgresServer, free_port

GG = Path(sys.executable).parent / "gg"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"
LIST = 'import { files } from "gg";\nfiles.listDir();\n'
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server this test alone may stop."""
    server = PostgresServer()
    yield server
    server.stop()
    server.remove()


class StopsServer:
    """A record sink ahead of the store that shuts the server down before the store writes the
    `nth` event of type `on`. A shutdown, not a crash: the store commits without waiting for the
    disk (`synchronous_commit = off`), so a crash may drop its newest commits, which the run's
    NDJSON copy keeps; what this pins is every commit the server made being there."""

    def __init__(self, server: PostgresServer, on: EventType, nth: int) -> None:
        self.server, self.on, self.left = server, on, nth

    def write(self, event: Event) -> None:
        if event.type is self.on:
            self.left -= 1
            if self.left == 0:
                self.server.stop("fast")

    def close(self) -> None:
        pass


@pytest.mark.parametrize("command", [["runs"], ["show", "latest"]])
def test_a_refused_connection_or_a_wrong_password_is_one_line_without_the_password_exit_1(
    postgres: PostgresServer, command: list[str]
) -> None:
    refused = f"postgresql://gg:{PASSWORD}@127.0.0.1:{free_port()}/runs"
    wrong = postgres.url(password="not-the-pw")
    for url, why in (
        (refused, "Connection refused"),
        (wrong, 'password authentication failed for user "gg"'),
    ):
        result = CliRunner().invoke(main, [*command, "--store", url])
        assert result.exit_code == 1, result.output
        shown = url.replace(PASSWORD, "***").replace("not-the-pw", "***")
        assert result.output.startswith(f"gg: the run store {shown} cannot be reached: ")
        assert why in result.output and PASSWORD not in result.output and "not-the-pw" not in result.output


def test_gg_run_on_a_server_it_cannot_reach_records_nothing_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = tmp_path / "spec-audit"
    shutil.copytree(EXAMPLE, example, ignore=shutil.ignore_patterns("report.md"))
    monkeypatch.chdir(tmp_path)
    url = f"postgresql://gg:{PASSWORD}@127.0.0.1:{free_port()}/runs"
    result = CliRunner().invoke(main, ["run", str(example)], env={"GG_STORE": url})
    assert result.exit_code == 1, result.output
    assert (
        "gg: the run store postgresql://gg:***@127.0.0.1:" in result.output and PASSWORD not in result.output
    )


def test_a_server_gone_mid_run_ends_it_internal_error_and_its_ndjson_copy_restores_it(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    url = own_server.fresh_database()
    where = parse_store_url(url, base=tmp_path)
    local = NdjsonSink(tmp_path, "run-test")
    store = RunStore(where)
    stops = StopsServer(own_server, EventType.MODEL_REPLY, nth=2)
    session = run_session(
        tmp_path, [program(LIST), program(LIST), program(FINISH)], record=[stops, store, local]
    )
    assert (session.result.status.value, session.result.exit_code) == ("internal_error", 1)
    shown = url.replace(PASSWORD, "***")
    lost = f"the run's record is lost: {shown} could not be written (the run store {shown} cannot be reached"
    assert session.result.message.startswith(lost)
    assert PASSWORD not in session.result.message
    kept = read_events(local.path)
    assert [e["type"] for e in kept].count("model_reply") == 2
    assert kept[-1]["type"] == "run_finished" and kept[-1]["status"] == "internal_error"

    own_server.start()
    cut = RunStore(where, create=False)
    assert cut.find_run("run-test").status == "running"  # never `completed`
    assert [e["type"] for e in cut.events("run-test")].count("model_reply") == 1
    cut.close()
    restored = CliRunner().invoke(main, ["store", "copy", str(tmp_path / ".gg"), url])
    assert restored.exit_code == 0, restored.output
    whole = RunStore(where, create=False)
    assert [json.dumps(e) for e in whole.events("run-test")] == [json.dumps(e) for e in kept]
    assert (whole.find_run("run-test").status, whole.find_run("run-test").exit_code) == ("internal_error", 1)


def test_a_server_gone_mid_program_stops_it_at_its_next_call_and_no_driver_line_is_printed(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    """A real `gg run`: the program waits for `go.txt`, which the test writes once the server is
    stopped; the call that meets the loss is refused, so `x.txt` is never written."""
    url = own_server.fresh_database()
    (tmp_path / "workspace").mkdir()
    waits = (
        'import { files, session } from "gg";\nawait files.writeFile("a.txt", "a");\n'
        'while (!JSON.stringify(await files.listDir()).includes("go.txt")) {}\n'
        'await files.writeFile("x.txt", "x");\nsession.finish("done");\n'
    )
    capabilities = [{"id": "responses-as-code", "params": {"language": "javascript", "timeoutSecs": 120}}]
    agent = {"slug": "root", "task": "t", "model": {"provider": "replay", "journal": "j.jsonl"}}
    document = {"name": "cut", "workspace": "workspace", "agents": [{**agent, "capabilities": capabilities}]}
    (tmp_path / "gg.json").write_text(json.dumps(document))
    (tmp_path / "j.jsonl").write_text(json.dumps(program(waits)) + "\n")
    gg = subprocess.Popen(
        [str(GG), "run", ".", "--store", url],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while not (tmp_path / "workspace" / "a.txt").exists() and gg.poll() is None:
        time.sleep(0.01)
    own_server.stop()  # `immediate`, as a crash: psycopg's pipeline meets a lost connection
    (tmp_path / "workspace" / "go.txt").write_text("go")
    out, err = gg.communicate(timeout=120)
    assert gg.returncode == 1, out + err
    assert not (tmp_path / "workspace" / "x.txt").exists()
    assert err.startswith("gg: the run's record is lost: "), err
    assert "psycopg" not in out + err and "Pipeline" not in err and "finished" not in out


def test_psycopg_s_own_log_lines_never_reach_the_terminal(postgres: PostgresServer, tmp_path: Path) -> None:
    speaks = (
        "import logging, sys\nfrom pathlib import Path\nfrom gg.telemetry.location import parse_store_url\n"
        "from gg.telemetry.postgres import connect\n"
        "connect(parse_store_url(sys.argv[1], base=Path(sys.argv[2]))).close()\n"
        "logging.getLogger('psycopg').warning('error ignored terminating <psycopg.Pipeline [BAD]>')\n"
    )
    said = subprocess.run(
        [sys.executable, "-c", speaks, postgres.fresh_database(), str(tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (said.returncode, said.stdout, said.stderr) == (0, "", "")
