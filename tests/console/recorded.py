"""Scripted sessions through the real loop (a real arm, a replayed model) recorded into a real
run store, as `tests/runs/session.py` runs them, for the pages a run needs real events for."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gg.agents.run import RunOptions, World, execute_run
from gg.config import parse_capability_set
from gg.providers.journal import parse_journal
from gg.providers.replay import ReplayClient
from gg.record.store import RunStore
from gg.sandbox.execution import Arm
from gg.telemetry.emitter import Telemetry
from runs.session import Profile

SESSION_RUN = "run-20260102-000000-sess"


def record_session(
    base: Path, replies: Sequence[Mapping[str, Any]], arm: Arm, profile: Profile | None = None
) -> Path:
    """Play `replies` through the loop; returns the store file the run was written to."""
    profile = profile or Profile(library={"keep": 20, "idLength": 4})
    workspace = base / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    journal = base / "journal.jsonl"
    journal.write_text("".join(json.dumps(reply) + "\n" for reply in replies), encoding="utf-8")
    capability_set = parse_capability_set(profile.document(journal), base)
    client = ReplayClient(parse_journal(journal.read_text(encoding="utf-8"), str(journal)))
    path = base / ".gg" / "runs.db"
    store = RunStore(path)
    telemetry = Telemetry(SESSION_RUN, [store])
    execute_run(capability_set, telemetry, RunOptions(), World(client=client, arm=arm))
    telemetry.close()
    return path
