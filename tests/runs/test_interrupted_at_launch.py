"""A run stopped by Ctrl-C or SIGTERM as it launches: a real `gg run` signalled once its events
file holds `run_started` (or the root's `agent_modules`), while its root's arm still boots and
before any model is asked. The run ends as one stopped at any later moment: recorded
`interrupted` with the signal's exit code (130, or 143 for SIGTERM), `run_finished` written, and
every agent that opened has its end on the record (`agent_finished`, `stopped`)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gg.record.store import RunStore
from support.waiting import wait_until

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"
GG = Path(sys.executable).parent / "gg"
WAIT_SECS = 60.0  # a guard against a hang


def _events(store: Path) -> str:
    """Every events file under the store, as one text (empty while none exists)."""
    return "".join(path.read_text() for path in store.glob("runs/*/events.ndjson"))


def _signalled_at(tmp_path: Path, marker: str, signum: int) -> tuple[int, str]:
    """A real `gg run` of the spec-audit example sent `signum` once `marker` is on its record: its
    exit code and what it wrote to stderr."""
    shutil.copytree(EXAMPLE, tmp_path / "sa", ignore=shutil.ignore_patterns("report.md"))
    gg = subprocess.Popen(
        [str(GG), "run", "sa"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_until(lambda: f'"type":"{marker}"' in _events(tmp_path / ".gg"), marker, WAIT_SECS)
        gg.send_signal(signum)
        _, stderr = gg.communicate(timeout=WAIT_SECS)
    finally:
        if gg.poll() is None:
            gg.kill()
    return gg.returncode, stderr


@pytest.mark.parametrize(
    ("marker", "signum", "code"),
    [
        ("run_started", signal.SIGINT, 130),
        ("agent_modules", signal.SIGINT, 130),
        ("run_started", signal.SIGTERM, 143),
        ("agent_modules", signal.SIGTERM, 143),
    ],
)
def test_a_signal_as_the_run_launches_records_it_interrupted_with_every_agents_end(
    tmp_path: Path, marker: str, signum: int, code: int
) -> None:
    returncode, stderr = _signalled_at(tmp_path, marker, signum)
    assert returncode == code, stderr
    assert "Traceback" not in stderr and "Aborted!" not in stderr
    listed = subprocess.run([str(GG), "runs", "--json"], cwd=tmp_path, capture_output=True, text=True)
    (run,) = json.loads(listed.stdout)["runs"]
    assert (run["status"], run["exitCode"]) == ("interrupted", code), stderr
    assert f"Run {run['id']} is kept in" in stderr
    store = RunStore.at(tmp_path, create=False)
    events = store.events(run["id"])
    assert (events[0]["type"], events[-1]["type"]) == ("run_started", "run_finished")
    assert events[-1]["exitCode"] == code
    opened = sorted(event["agentId"] for event in events if event["type"] == "agent_spawned")
    ended = sorted((e["agentId"], e["status"]) for e in events if e["type"] == "agent_finished")
    assert ended == [(agent, "stopped") for agent in opened]
