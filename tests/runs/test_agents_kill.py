"""A run of many agents killed with `kill -9` keeps every turn every agent finished: a real `gg run`
in its own process, killed while its root waits and both its children spin in their second turn.
It wrote no end, so `gg runs` and `gg show` read it `unfinished`, with no exit code, and each
child's cut-short turn shows the program it was spinning in."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.runs import shown_status
from gg.record.store import RunStore
from support.waiting import wait_until

GG = Path(sys.executable).parent / "gg"
WAIT_SECS = 120.0

ROOT = """import { delegation } from "gg";
const a = delegation.spawnSubagent({ agent: "worker", prompt: "count the first half" });
const b = delegation.spawnSubagent({ agent: "worker", prompt: "count the second half" });
delegation.waitForSubagents([a.id, b.id]);
"""
FIRST = 'import { files } from "gg";\nfiles.writeFile("{name}-turn-1", "done");\n'
SPIN = 'import { files } from "gg";\nfiles.writeFile("{name}-turn-2", "spinning");\nwhile (true) {}\n'


def _config(folder: Path) -> Path:
    folder.mkdir()
    lines = [{"calls": [{"name": "submit_program", "arguments": {"program": ROOT}}]}]
    for agent in ("root.1", "root.2"):
        name = agent.replace(".", "-")
        for template in (FIRST, SPIN):
            lines.append(
                {
                    "agent": agent,
                    "calls": [
                        {"name": "submit_program", "arguments": {"program": template.replace("{name}", name)}}
                    ],
                }
            )
    (folder / "journal.jsonl").write_text("".join(json.dumps(entry) + "\n" for entry in lines))
    code = {"id": "responses-as-code", "params": {"timeoutSecs": 600}}
    model = {"provider": "replay", "journal": "journal.jsonl"}
    document = {
        "name": "killed",
        "agents": [
            {
                "slug": "root",
                "task": "Count in two halves.",
                "model": model,
                "capabilities": [code, {"id": "subagents", "params": {"maxDepth": 1}}],
                "subagents": [{"agent": "worker", "scopes": ["subagent"]}],
            },
            {"slug": "worker", "model": model, "capabilities": [code]},
        ],
    }
    (folder / "workspace").mkdir()
    (folder / "gg.json").write_text(json.dumps(document))
    return folder


def test_kill_9_mid_run_keeps_every_finished_turn_of_every_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(tmp_path / "config")
    base = tmp_path / "base"
    base.mkdir()
    process = subprocess.Popen(
        [str(GG), "run", str(config)],
        cwd=base,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    workspace = config / "workspace"
    marks = [workspace / f"root-{n}-turn-2" for n in (1, 2)]
    deadline = time.monotonic() + WAIT_SECS
    while not all(mark.exists() for mark in marks) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert all(mark.exists() for mark in marks), "the children never reached their second turn"
    wait_until(lambda: _second_turns_asked(base), "the second turns' requests on the record", WAIT_SECS)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    store = RunStore.at(base, create=False)
    (row,) = store.list_runs()
    events = store.events(row.id)
    finished = sorted((e["agentId"], e["turn"]) for e in events if e["type"] == "turn_outcome")
    assert finished == [("root.1", 1), ("root.2", 1)]  # each child's first turn; the root still waits
    begun = {(e["agentId"], e["turn"]) for e in events if e["type"] == "model_request"}
    assert {("root", 1), ("root.1", 2), ("root.2", 2)} <= begun
    assert {e["agentId"] for e in events if e["type"] == "agent_spawned"} == {"root", "root.1", "root.2"}
    assert not any(e["type"] in ("run_finished", "agent_finished") for e in events)
    assert row.status == "running" and shown_status(row) == "unfinished"
    monkeypatch.chdir(base)
    _read_unfinished(row.id)


def _read_unfinished(run_id: str) -> None:
    """`gg runs --json` and `gg show` read the killed run as unfinished: the root's waiting program
    and each child's spinning one are shown, none with a verdict."""
    (listed,) = json.loads(CliRunner().invoke(main, ["runs", "--json"]).output)["runs"]
    text = CliRunner().invoke(main, ["show", run_id]).output
    assert (listed["status"], listed["exitCode"], listed["finishedAt"]) == ("unfinished", None, None)
    for child in ("root-1", "root-2"):
        assert f'files.writeFile("{child}-turn-2", "spinning");' in text
    assert "delegation.waitForSubagents([a.id, b.id]);" in text
    assert text.count(": unfinished — the run stopped before it reported") == 3
    assert "→ unfinished (no outcome recorded)" in text and "→ ok" not in text
    summary = " ".join(text[text.rindex("─") + 1 :].split())  # the run's last words, unwrapped
    assert summary.startswith("unfinished · ") and summary.endswith("· 5 programs (0 failed, 3 unfinished)")


def _second_turns_asked(base: Path) -> bool:
    """Whether both children's second model requests are on the record (read while gg runs)."""
    store = RunStore.at(base, create=False)
    try:
        (row,) = store.list_runs()
        begun = {(e["agentId"], e["turn"]) for e in store.events(row.id) if e["type"] == "model_request"}
    finally:
        store.close()
    return {("root.1", 2), ("root.2", 2)} <= begun
