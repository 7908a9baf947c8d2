"""A playback runs in a copy of the workspace at another path; a path under the workspace that a
hook wrote into the record (the built-in `trace` on a write names the file's absolute path) is
compared as workspace-relative, so a run recorded with one verifies faithful."""

from __future__ import annotations

import json
from pathlib import Path

from playback.recorded import gg, only_run

WRITE = 'import { files } from "gg";\nfiles.writeFile("b.txt", "bee");\n'
FINISH = 'import { session } from "gg";\nsession.finish("wrote b.txt");\n'


def _reply(program: str) -> str:
    call = {"name": "submit_program", "arguments": {"program": program}}
    return json.dumps({"text": "", "calls": [call]})


def _traced(base: Path) -> Path:
    folder = base / "traced"
    (folder / "ws").mkdir(parents=True)
    (folder / "journal.jsonl").write_text(_reply(WRITE) + "\n" + _reply(FINISH) + "\n")
    config = {
        "name": "traced",
        "workspace": "ws",
        "limits": {"maxTurns": 3},
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay", "journal": "journal.jsonl"},
                "capabilities": [{"id": "responses-as-code"}],
                "hooks": [{"event": "post-write", "builtIn": "trace"}],
            }
        ],
    }
    (folder / "gg.json").write_text(json.dumps(config))
    return folder / "gg.json"


def test_a_run_traced_on_its_writes_verifies_faithful_from_a_copy_elsewhere(tmp_path: Path) -> None:
    config = _traced(tmp_path)
    ran = gg(tmp_path, "run", str(config), "--record", str(tmp_path / "r.jsonl"))
    assert ran.exit_code == 0, ran.output
    run_id = only_run(tmp_path)
    stored = (tmp_path / ".gg" / "runs" / run_id / "events.ndjson").read_text()
    assert f'"path\\": \\"{config.parent / "ws" / "b.txt"}' in stored  # the trace named it
    verified = gg(tmp_path, "replay", "--verify", "latest")
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("faithful (fingerprint exact): ")
