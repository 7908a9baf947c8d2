"""`gg mcp serve` stopped while a call's program runs: the server stops at once, however the call
stands. The program is stopped, never waited for (it would spin for good), and the session is
recorded `interrupted`, saying what stopped it, with that signal's exit code (143 for SIGTERM,
130 for Ctrl-C); its agent's end is on the record (`stopped`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gg
from support.waiting import wait_until
from with_mcp.test_serve import START_SECS, _config, _runs, _Wire

pytestmark = pytest.mark.timeout(300)

SPIN = 'import { files } from "gg";\nfiles.writeFile("spinning", "yes");\nwhile (true) {}\n'


def _spinning_forever(tmp_path: Path) -> Path:
    """The served set, each arm's programs given ten minutes (far past any wait of this test)."""
    config = _config(tmp_path)
    document = json.loads(config.read_text())
    for profile in document["agents"]:
        profile["capabilities"][0]["params"]["timeoutSecs"] = 600
    config.write_text(json.dumps(document))
    return config


@pytest.mark.parametrize(
    ("stop", "code", "said", "recorded"),
    [
        ("SIGTERM", 143, "interrupted by SIGTERM (the process was told to stop)", 143),
        ("SIGINT", 130, "interrupted by the operator (Ctrl-C)", 130),
        ("stdin", 0, "ended: the MCP client closed the session", 130),
    ],
)
def test_a_stopped_server_stops_the_program_running_and_records_the_session_interrupted(
    tmp_path: Path, stop: str, code: int, said: str, recorded: int
) -> None:
    with _Wire(_spinning_forever(tmp_path), tmp_path).opened() as wire:
        wire.asked += 1
        call = {"name": "run_program_javascript", "arguments": {"program": SPIN}}
        wire.tell({"jsonrpc": "2.0", "id": wire.asked, "method": "tools/call", "params": call})
        spinning = tmp_path / "workspace" / "spinning"
        wait_until(spinning.exists, "the call's program to run", START_SECS)
        assert wire.stop(stop) == code
    (run,) = _runs(tmp_path)
    assert (run.status, run.exit_code, run.message) == ("interrupted", recorded, said)
    with gg.open_store(tmp_path) as store:
        events = [event.to_wire() for event in store.run(run.id).events()]
    ended = [(e["agentId"], e["status"]) for e in events if e["type"] == "agent_finished"]
    assert ended == [("root", "stopped")]
