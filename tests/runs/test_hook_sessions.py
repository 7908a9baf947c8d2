"""Hooks in whole sessions, on both arms (issue 26): each event fires once where it should, the
three blocking events block, a message reaches the next prompt once, and a hook that judges
nothing ends the run `hook_error`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooked import HookedProfile, executable, hook_runs
from session import program, run_session

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

AGENT_EVENTS = (
    "agent-start",
    "agent-stop",
    "pre-write",
    "post-write",
    "pre-shell",
    "post-shell",
    "pre-compact",
    "post-compact",
)
WORK = {
    "javascript": 'import { files, shell, context } from "gg";\n'
    'files.writeFile("a.txt", "one");\n'
    'shell.shell("true");\n'
    'context.compact("kept", []);\n',
    "python": 'import gg\ngg.files.write_file("a.txt", "one")\ngg.shell.shell("true")\n'
    'gg.context.compact("kept", files=[])\n',
}
FINISH = {
    "javascript": 'import { session } from "gg";\nsession.finish("done");\n',
    "python": 'import gg\ngg.session.finish("done")\n',
}
TRIES = {
    "javascript": 'import { files, shell, session } from "gg";\n'
    "const seen = [];\n"
    'try { files.writeFile("a.txt", " "); } catch (e) { seen.push(`${e.code}: ${e.message}`); }\n'
    'try { shell.shell("git push origin main; touch ran.txt"); }\n'
    "catch (e) { seen.push(`${e.code}: ${e.message}`); }\n"
    'try { session.finish("too early"); } catch (e) { seen.push(`${e.code}: ${e.message}`); }\n'
    'files.writeFile("seen.txt", seen.join("\\n"));\n',
    "python": "import gg\nseen = []\n"
    'try:\n    gg.files.write_file("a.txt", " ")\nexcept OSError as e:\n    seen.append(str(e))\n'
    'try:\n    gg.shell.shell("git push origin main; touch ran.txt")\nexcept OSError as e:\n'
    "    seen.append(str(e))\n"
    'try:\n    gg.session.finish("too early")\nexcept OSError as e:\n    seen.append(str(e))\n'
    'gg.files.write_file("seen.txt", "\\n".join(seen))\n',
}
STOP_GATE = """#!/usr/bin/python3
import json, sys
event = json.load(sys.stdin)
if event.get("finalText") == "too early":
    print(json.dumps({"action": "block", "message": "the build must pass first"}))
else:
    print(json.dumps({"action": "continue"}))
"""


def test_each_event_fires_once_where_it_should(tmp_path: Path, arm: Arm) -> None:
    language = arm.language
    profile = HookedProfile(
        language=language,
        shell={},
        hooks=[{"event": event, "builtIn": "trace"} for event in AGENT_EVENTS],
        session_hooks=[
            {"event": "session-start", "builtIn": "trace"},
            {"event": "session-end", "builtIn": "trace"},
        ],
    )
    session = run_session(tmp_path, [program(WORK[language]), program(FINISH[language])], profile, arm=arm)
    assert session.finished["status"] == "completed"
    fired = [(run["event"], run["turn"]) for run in hook_runs(session.events)]
    assert fired == [
        ("session-start", 0),
        ("agent-start", 0),
        ("pre-write", 1),
        ("post-write", 1),
        ("pre-shell", 1),
        ("post-shell", 1),
        ("pre-compact", 1),
        ("post-compact", 1),
        ("agent-stop", 2),
        ("session-end", 2),
    ]
    by_event = {run["event"]: run for run in hook_runs(session.events)}
    written = json.loads(by_event["pre-write"]["message"].split(" ", 1)[1])
    assert written == {
        "agent": "root",
        "agentId": "root",
        "contents": "one",
        "path": str((session.workspace / "a.txt").resolve()),
    }
    assert by_event["post-shell"]["message"].endswith('"command": "true", "ok": true}')
    assert by_event["agent-stop"]["message"].endswith('"call": "finish", "finalText": "done"}')
    assert by_event["session-end"]["action"] == "continue"


def test_the_three_blocking_events_block_and_the_program_reads_a_refusal(tmp_path: Path, arm: Arm) -> None:
    language = arm.language
    gate = executable(tmp_path / "hooks", "stop-gate", STOP_GATE)
    profile = HookedProfile(
        language=language,
        shell={},
        hooks=[
            {"event": "pre-write", "builtIn": "refuse-empty-write"},
            {"event": "pre-shell", "builtIn": "guard-destructive-shell"},
            {"event": "agent-stop", "name": "build gate", "command": gate},
        ],
    )
    session = run_session(tmp_path, [program(TRIES[language]), program(FINISH[language])], profile, arm=arm)
    seen = (session.workspace / "seen.txt").read_text().splitlines()
    path = (session.workspace / "a.txt").resolve()
    assert [line.split("refused: ", 1)[1] for line in seen] == [
        f"the pre-write hook `refuse-empty-write` refused it: the write would leave {path} empty",
        "the pre-shell hook `guard-destructive-shell` refused it: the command would git push",
        "the agent-stop hook `build gate` refused it: the build must pass first",
    ]
    assert not (session.workspace / "a.txt").exists() and not (session.workspace / "ran.txt").exists()
    assert session.outcome(1)["outcome"] == "progressed"
    assert session.finished["status"] == "completed" and session.finished["finalText"] == "done"
    actions = [(run["turn"], run["event"], run["action"]) for run in hook_runs(session.events)]
    assert actions == [
        (1, "pre-write", "block"),
        (1, "pre-shell", "block"),
        (1, "agent-stop", "block"),
        (1, "pre-write", "continue"),  # seen.txt
        (2, "agent-stop", "continue"),
    ]


def test_a_message_reaches_the_next_prompt_once(tmp_path: Path, arm: Arm) -> None:
    language = arm.language
    profile = HookedProfile(language=language, shell={}, hooks=[{"event": "post-shell", "builtIn": "trace"}])
    nothing = {"javascript": "const quiet = 1;\n", "python": "quiet = 1\n"}[language]
    shell = {
        "javascript": 'import { shell } from "gg";\nshell.shell("true");\n',
        "python": 'import gg\ngg.shell.shell("true")\n',
    }[language]
    replies = [program(shell), program(nothing), program(FINISH[language])]
    session = run_session(tmp_path, replies, profile, arm=arm)
    said = "From the post-shell hook `trace`\n----\npost-shell "
    carried = [
        [m["content"] for m in request["messages"] if m["content"].startswith(said)]
        for request in session.of_type("model_request")
    ]
    assert [len(found) for found in carried] == [0, 1, 0]
