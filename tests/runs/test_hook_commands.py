"""Command hooks (issue 26): each runs in a jail of its own with the event on its stdin and sees
nothing else; one that fails, times out or answers what its event cannot take ends the run
`hook_error` (exit 1), and a failing `session-end` hook is only logged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from crew import line, profile, run_crew, subagents
from hooked import HookedProfile, executable, hook_runs
from session import program, run_session

from gg.sandbox.arms.javascript import JavaScriptArm

pytestmark = pytest.mark.arms("javascript")

WRITE = 'import { files } from "gg";\nfiles.writeFile("a.txt", "secret plan");\n'
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'
LOOK = """#!/usr/bin/python3
import json, os, sys
event = json.load(sys.stdin)
seen = {
    "folder": sorted(os.listdir(".")),
    "environment": sorted(os.environ),
    "workspaceShown": os.path.exists(os.path.dirname(event["path"])),
    "contents": event["contents"],
}
print("looking around")
print(json.dumps({"action": "message", "message": json.dumps(seen)}))
"""


def test_a_command_hook_sees_only_its_payload(
    tmp_path: Path, arm: JavaScriptArm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GG_HOST_SECRET", "do not show")
    look = executable(tmp_path / "hooks", "look", LOOK)
    profile = HookedProfile(hooks=[{"event": "post-write", "command": look}])
    session = run_session(tmp_path, [program(WRITE), program(FINISH)], profile, arm=arm)
    assert session.finished["status"] == "completed"
    (run,) = hook_runs(session.events)
    assert (run["event"], run["hook"], run["action"]) == ("post-write", "look", "message")
    seen = json.loads(run["message"])
    assert seen["folder"] == ["event.json"]
    assert seen["workspaceShown"] is False and seen["contents"] == "secret plan"
    assert "GG_HOST_SECRET" not in seen["environment"]
    assert set(seen["environment"]) <= {"PATH", "HOME", "LANG", "PWD", "SHLVL", "_"}


def test_a_hanging_hook_times_out_and_ends_the_run_hook_error(tmp_path: Path, arm: JavaScriptArm) -> None:
    hang = executable(tmp_path / "hooks", "hang", "#!/bin/sh\nexec sleep 600\n")
    profile = HookedProfile(hooks=[{"event": "pre-write", "command": hang, "timeoutSecs": 0.5}])
    session = run_session(tmp_path, [program(WRITE), program(FINISH)], profile, arm=arm)
    assert (session.finished["status"], session.finished["exitCode"]) == ("hook_error", 1)
    assert session.finished["message"] == "the pre-write hook `hang` did not answer within its 0.5 s timeout"
    (run,) = hook_runs(session.events)
    assert (run["action"], run["error"]) == ("failed", "did not answer within its 0.5 s timeout")
    assert not (session.workspace / "a.txt").exists()
    assert session.model_calls == 1 and not session.of_type("turn_outcome")


@pytest.mark.parametrize(
    ("script", "event", "error"),
    [
        ("#!/bin/sh\necho broken\nexit 3\n", "pre-write", "exited 3: broken"),
        ('#!/bin/sh\necho \'{"action": "block"}\'\n', "post-write", "answered block on post-write, which"),
        ("#!/bin/sh\necho fine\n", "agent-start", "printed 'fine', which is not a JSON object"),
    ],
)
def test_a_hook_that_judges_nothing_ends_the_run_hook_error(
    tmp_path: Path, arm: JavaScriptArm, script: str, event: str, error: str
) -> None:
    broken = executable(tmp_path / "hooks", "broken", script)
    profile = HookedProfile(hooks=[{"event": event, "command": broken}])
    session = run_session(tmp_path, [program(WRITE), program(FINISH)], profile, arm=arm)
    assert (session.finished["status"], session.finished["exitCode"]) == ("hook_error", 1)
    (run,) = hook_runs(session.events)
    assert run["action"] == "failed" and run["error"].startswith(error)
    (logged,) = session.logs("error")
    assert logged["message"].startswith(f"the {event} hook `broken` ")


def test_a_failing_session_end_hook_is_only_logged(tmp_path: Path, arm: JavaScriptArm) -> None:
    broken = executable(tmp_path / "hooks", "report", "#!/bin/sh\necho unreachable\nexit 7\n")
    profile = HookedProfile(session_hooks=[{"event": "session-end", "command": broken}])
    session = run_session(tmp_path, [program(FINISH)], profile, arm=arm)
    assert (session.finished["status"], session.finished["exitCode"]) == ("completed", 0)
    (warning,) = [log for log in session.logs("warn") if "session-end" in log["message"]]
    assert warning["message"] == "the session-end hook `report` exited 7: unreachable; the run's end stands"


def test_hooks_are_each_profiles_and_a_subagents_failing_hook_ends_the_run(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    broken = executable(tmp_path / "hooks", "gate", "#!/bin/sh\nexit 4\n")
    root = profile(
        "root", subagents(), roster=["worker"], hooks=[{"event": "agent-start", "builtIn": "trace"}]
    )
    worker = profile("worker", hooks=[{"event": "agent-start", "command": broken}])
    spawn = (
        'import { delegation } from "gg";\n'
        'const child = delegation.spawnSubagent({ agent: "worker", prompt: "go" });\n'
        "delegation.waitForSubagents([child.id]);\n"
    )
    crew = run_crew(
        tmp_path, [root, worker], [line(spawn), line(FINISH), line(FINISH, profile="worker")], arm=arm
    )
    assert [(run["agentId"], run["event"], run["action"]) for run in hook_runs(crew.events)] == [
        ("root", "agent-start", "message"),
        ("root.1", "agent-start", "failed"),
    ]
    assert (crew.finished["status"], crew.finished["exitCode"]) == ("hook_error", 1)
    assert crew.finished["message"] == "the agent-start hook `gate` exited 4: (no output)"
