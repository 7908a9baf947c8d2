"""A run of many agents stopped by Ctrl-C or SIGTERM (issue 21, item 7): a real `gg run` at
`maxParallel` 1 whose one slot a child holds with a program that spins for good, two more
children in line behind it and the root waiting for all three. The signal ends the run at once,
without waiting for any turn to end: it is recorded `interrupted` with the signal's exit code, and
every agent that opened has its end on the record (`stopped`). How fast is `bench/stops.py`'s."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gg.record.store import RunStore

GG = Path(sys.executable).parent / "gg"
WAIT_SECS = 120.0  # a guard against a hang; the spinning program's own timeout is 600 s

ROOT = """import { delegation } from "gg";
for (const n of [1, 2, 3]) delegation.spawnSubagent({ agent: "worker", prompt: `part ${n}` });
delegation.waitForSubagents();
"""
SPIN = 'import { files } from "gg";\nfiles.writeFile("spinning", "yes");\nwhile (true) {}\n'


def _config(folder: Path) -> Path:
    (folder / "workspace").mkdir(parents=True)
    lines = [_line(ROOT), _line(SPIN, "worker")]
    (folder / "journal.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    code = {"id": "responses-as-code", "params": {"timeoutSecs": 600}}
    model = {"provider": "replay", "journal": "journal.jsonl"}
    document = {
        "name": "interrupted",
        "workspace": "workspace",
        "limits": {"maxParallel": 1},
        "agents": [
            {
                "slug": "root",
                "task": "Count in three parts.",
                "model": model,
                "capabilities": [code, {"id": "subagents", "params": {"maxDepth": 1}}],
                "subagents": [{"agent": "worker", "scopes": ["subagent"]}],
            },
            {"slug": "worker", "model": model, "capabilities": [code]},
        ],
    }
    (folder / "gg.json").write_text(json.dumps(document))
    return folder


def _line(program: str, profile: str | None = None) -> dict[str, object]:
    call = {"name": "submit_program", "arguments": {"program": program}}
    return {"calls": [call]} if profile is None else {"profile": profile, "calls": [call]}


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_tree_at_once_and_records_every_agents_end(
    tmp_path: Path, signum: int, code: int
) -> None:
    config = _config(tmp_path / "config")
    base = tmp_path / "base"
    base.mkdir()
    gg = subprocess.Popen(
        [str(GG), "run", str(config)], cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        mark = config / "workspace" / "spinning"
        deadline = time.monotonic() + WAIT_SECS
        while not mark.exists() and gg.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists(), "no child ever ran its program"
        gg.send_signal(signum)
        _, stderr = gg.communicate(timeout=WAIT_SECS)
    finally:
        if gg.poll() is None:
            gg.kill()
    assert gg.returncode == code and "Traceback" not in stderr, stderr
    store = RunStore.at(base, create=False)
    (row,) = store.list_runs()
    events = store.events(row.id)
    (finished,) = [e for e in events if e["type"] == "run_finished"]
    assert (finished["status"], finished["exitCode"]) == ("interrupted", code)
    opened = [e["agentId"] for e in events if e["type"] == "agent_spawned"]
    ended = [(e["agentId"], e["status"]) for e in events if e["type"] == "agent_finished"]
    assert sorted(opened) == ["root", "root.1", "root.2", "root.3"]
    assert sorted(ended) == [(agent, "stopped") for agent in sorted(opened)]
