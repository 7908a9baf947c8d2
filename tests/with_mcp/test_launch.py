"""An MCP server that cannot be started or reached, or that lists no tool, refuses the launch naming
it; and every server process gg started dies with gg, however gg ends (`kill -9` included), as
its guests do."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gg
from with_mcp.served import FIXTURE, GG, STDIO_SERVER, Acting, alive, config, free_port

pytestmark = pytest.mark.timeout(300)

START_SECS = 120.0
GONE_SECS = 1.0


def test_servers_that_cannot_serve_refuse_the_launch_naming_each(tmp_path: Path) -> None:
    document = config(tmp_path, "javascript", {"command": ["/nonexistent/mcp-server"]})
    servers = document["agents"][0]["capabilities"][1]["params"]["servers"]
    servers["empty"] = {"command": [sys.executable, str(FIXTURE), "--empty"]}
    servers["away"] = {"url": f"http://127.0.0.1:{free_port()}/mcp"}
    model = Acting(["never"], tmp_path / "workspace")
    result = gg.run(document, model=model, store=tmp_path)
    assert result.status == "refused" and result.exit_code == 2 and model.requests == []
    message = result.message or ""
    assert "servers.fixture: cannot be reached: FileNotFoundError" in message, message
    assert "servers.empty: lists no tool" in message, message
    assert "servers.away: cannot be reached: ConnectError" in message, message


def test_modules_are_named_by_the_rule_and_dispatch_under_those_names(tmp_path: Path) -> None:
    document = config(tmp_path, "javascript", STDIO_SERVER)
    servers = document["agents"][0]["capabilities"][1]["params"]["servers"]
    servers["files"] = servers["my.notes"] = STDIO_SERVER
    program = (
        'import { files_mcp, my_notes, fixture, session } from "gg";\n'
        "const answers = [files_mcp.add(1, 1).result, my_notes.getNote(3).title, fixture.add(2, 2).result];\n"
        "session.finish(answers.join());\n"
    )
    result = gg.run(document, model=Acting([program], tmp_path / "workspace"), store=tmp_path)
    assert result.status == "completed", result.message
    assert result.final_text == "2,note 3,4"


def test_two_profiles_that_define_one_server_otherwise_refuse_the_launch_before_a_run_exists(
    tmp_path: Path,
) -> None:
    document = config(tmp_path, "javascript", STDIO_SERVER)
    other = json.loads(json.dumps(document["agents"][0]))
    other["slug"] = "helper"
    other["capabilities"][1]["params"]["timeoutSecs"] = 9
    document["agents"].append(other)
    model = Acting(["never"], tmp_path / "workspace")
    with pytest.raises(gg.ConfigError) as refusal:
        gg.run(document, model=model, store=tmp_path)
    said = "agents[1].capabilities[1].params.servers.fixture: defines the server otherwise than agents[0]"
    assert said in str(refusal.value) and model.requests == []
    assert not (tmp_path / ".gg").exists()


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_no_server_gg_started_outlives_gg(tmp_path: Path, stop: signal.Signals) -> None:
    document = config(tmp_path, "javascript", STDIO_SERVER, timeout_secs=3600)
    program = (
        'import { fixture, files } from "gg";\n'
        'files.writeFile("pid.txt", String(fixture.pid().result));\n'
        "fixture.nap(3600);\n"
    )
    journal = tmp_path / "journal.jsonl"
    journal.write_text(
        json.dumps({"calls": [{"name": "submit_program", "arguments": {"program": program}}]}) + "\n"
    )
    document["agents"][0]["model"] = {"provider": "replay", "journal": str(journal)}
    (tmp_path / "gg.json").write_text(json.dumps(document))
    run = subprocess.Popen(
        [*GG, "run", str(tmp_path / "gg.json")],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        started = time.monotonic()
        pid_file = tmp_path / "workspace" / "pid.txt"
        while not pid_file.exists():
            assert run.poll() is None, "gg ended before its program called the server"
            assert time.monotonic() - started < START_SECS
            time.sleep(0.05)
        server = int(pid_file.read_text())
        assert alive(server)
        os.kill(run.pid, stop)
        run.wait(timeout=30)
        deadline = time.monotonic() + GONE_SECS
        while alive(server) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not alive(server)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


def test_without_the_mcp_extra_the_launch_is_refused_saying_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("mcp", "gg.mcp.binding"):
        monkeypatch.setitem(sys.modules, name, None)  # as if `pip install 'gg[mcp]'` never ran
    result = gg.run(
        config(tmp_path, "javascript", STDIO_SERVER),
        model=Acting(["never"], tmp_path / "workspace"),
        store=tmp_path,
    )
    assert result.status == "refused" and result.exit_code == 2
    assert "the mcp capability needs the MCP SDK: pip install 'gg[mcp]'" in (result.message or "")


HANGING = (
    "import os, pathlib, time\npathlib.Path('server.pid').write_text(str(os.getpid()))\ntime.sleep(1000)\n"
)


def test_a_server_that_never_answers_refuses_the_launch_after_60_s_and_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "hangstart.py").write_text(HANGING)
    document = config(tmp_path, "javascript", {"command": [sys.executable, "hangstart.py"]}, 4)
    document["agents"][0]["capabilities"][1]["params"]["servers"] = {
        "hang": document["agents"][0]["capabilities"][1]["params"]["servers"]["fixture"]
    }
    (tmp_path / "bad.json").write_text(json.dumps(document))
    run = _gg(tmp_path, "run", "bad.json", timeout=240)
    assert run.returncode == 2, run.stdout + run.stderr
    output = run.stdout + run.stderr
    assert "Traceback" not in output, output
    said = "servers.hang: cannot be reached: it did not answer within 60 s of being started"
    assert said in output, output
    listing = _gg(tmp_path, "runs", "--json", timeout=60)
    (recorded,) = json.loads(listing.stdout)["runs"]
    assert (recorded["status"], recorded["exitCode"]) == ("refused", 2)
    assert said in recorded["message"]
    folders = list((tmp_path / ".gg" / "runs").iterdir())
    assert [folder.name for folder in folders] == [recorded["id"]] and any(folders[0].iterdir())
    assert not alive(int((tmp_path / "server.pid").read_text()))


def _gg(folder: Path, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """`gg ARGS` run in `folder` as a user runs it, its output kept."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([*GG, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
