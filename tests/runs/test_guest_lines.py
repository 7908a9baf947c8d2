"""Many agents on few guests: with more agents taking turns at once than their arm has guests
(`maxParallel` 3, two guests here), a turn finding no guest free waits in line before it asks its
model; a turn waiting for its model's reply, or a program waiting in a host function, holds none,
so every agent still gets there at once."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from crew import Crew, line, profile, run_crew, subagents

import gg
from gg.agents import leases
from gg.providers.base import ModelClient, Reply, Request
from support.waiting import came_true

WORKERS = 3
WATCHDOG_SECS = 60.0

SPAWN = f"""import {{ delegation }} from "gg";
const ids = [];
for (let i = 0; i < {WORKERS}; i++) {{
  ids.push(delegation.spawnSubagent({{ agent: "worker", prompt: "work" }}).id);
}}
delegation.waitForSubagents(ids);
"""
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'
# A worker's program that holds its guest until the test says go, looking every 10 ms; it marks
# that it runs first.
HOLD = """import { files } from "gg";
files.writeFile(`in-${Math.random().toString(36).slice(2)}`, "running");
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  try { files.readFile("go"); break; } catch { Atomics.wait(pause, 0, 0, 10); }
}
"""


@pytest.fixture(autouse=True)
def two_guests(monkeypatch: pytest.MonkeyPatch) -> None:
    """An arm of two guests, whatever this machine's cores."""
    monkeypatch.setattr(leases, "GUESTS", 2)


def _crew(tmp_path: Path, worker: str, **run: Any) -> Crew:
    profiles = [profile("root", subagents(1), roster=["worker"]), profile("worker", timeout_secs=120)]
    lines = [line(SPAWN), line(FINISH), line(worker, profile="worker"), line(FINISH, profile="worker")]
    return run_crew(tmp_path, profiles, lines, limits={"maxParallel": WORKERS}, **run)


def test_a_turn_finding_no_guest_free_waits_in_line_before_it_asks_its_model(tmp_path: Path) -> None:
    ran: dict[str, Crew] = {}
    thread = threading.Thread(target=lambda: ran.update(crew=_crew(tmp_path, HOLD)), daemon=True)
    thread.start()
    workspace = tmp_path / "workspace"

    def running() -> int:
        return len(list(workspace.glob("in-*")))

    assert came_true(lambda: running() >= 2, WATCHDOG_SECS)  # two workers' programs hold the two guests
    assert not came_true(lambda: running() > 2, 1.0)
    (workspace / "go").write_text("go")
    thread.join(WATCHDOG_SECS * 2)
    crew = ran["crew"]
    assert crew.finished["status"] == "completed" and running() == WORKERS
    workers = crew.agents
    asked = sorted(crew.index("model_request", worker) for worker in workers)
    first_done = min(crew.index("turn_outcome", worker) for worker in workers)
    assert asked[-1] > first_done  # the third asked its model once a turn gave its guest back


class _Meeting:
    """A model client that answers only once every worker is asking at once."""

    def __init__(self, client: ModelClient, meeting: threading.Barrier) -> None:
        self._client = client
        self._meeting = meeting
        self._met = False

    @property
    def model_id(self) -> str:
        return self._client.model_id

    def complete(self, request: Request) -> Reply:
        if not self._met:
            self._met = True
            self._meeting.wait()
        return self._client.complete(request)


def test_a_turn_waiting_for_its_models_reply_holds_no_guest(tmp_path: Path) -> None:
    meeting = threading.Barrier(WORKERS, timeout=WATCHDOG_SECS)

    def wrap(agent_id: str, client: ModelClient) -> ModelClient:
        return client if agent_id == "root" else _Meeting(client, meeting)

    crew = _crew(tmp_path, FINISH, wrap=wrap)
    assert not meeting.broken  # all three asked at once, on two guests
    assert crew.finished["status"] == "completed"


meeting = gg.family("meeting", doc="Where the workers meet.")
MET = threading.Barrier(WORKERS, timeout=WATCHDOG_SECS)


@meeting.operation
def arrive() -> int:
    """Wait until every worker has arrived."""
    return MET.wait()


def test_a_program_waiting_in_a_host_function_holds_no_guest(tmp_path: Path) -> None:
    MET.reset()
    (tmp_path / "workspace").mkdir()
    journal = tmp_path / "journal.jsonl"
    arrive_then_finish = 'import { meeting, session } from "gg";\nmeeting.arrive();\nsession.finish("met");\n'
    entries = [line(SPAWN), line(FINISH), line(arrive_then_finish, profile="worker")]
    journal.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    code = {"id": "responses-as-code", "params": {"timeoutSecs": 120}}
    model = {"provider": "replay", "journal": str(journal)}
    document = {
        "name": "meeting",
        "workspace": str(tmp_path / "workspace"),
        "limits": {"maxParallel": WORKERS},
        "agents": [
            {
                "slug": "root",
                "task": "Have the workers meet.",
                "model": model,
                "capabilities": [code, {"id": "subagents", "params": {"maxDepth": 1}}],
                "subagents": [{"agent": "worker", "scopes": ["subagent"]}],
            },
            {
                "slug": "worker",
                "model": model,
                "capabilities": [code, {"id": "host-functions", "params": {"families": ["meeting"]}}],
            },
        ],
    }
    result = gg.run(document, families=[meeting], store=tmp_path)
    assert not MET.broken  # all three programs were in the call at once, on two guests
    assert result.status == "completed"
