"""What a recorded run started from, read back (`gg.telemetry.start` keeps it): the capability
set's file, the copy of the starting workspace and the recording, beside the run's events.

Rules:
- `kept_start` reads the start of one run beside a store file; a run that kept none (it was not
  recorded, its workspace was over the bound, the copy was refused) answers `NoStart` with the
  sentence saying so, as does a start some part of which is missing or unreadable (naming the
  part: a `start/` folder without its `start.json` lacks that file, it did not keep "no start").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from gg.telemetry.layout import start_beside
from gg.telemetry.start import JOURNAL_FILE, START_FILE, WORKSPACE_DIR
from gg.wire import escaped


@dataclass(frozen=True)
class KeptStart:
    config_path: Path  # the capability set the run was launched with, where it was
    workspace: Path  # the copy of the workspace as it stood before the first turn
    journal: Path  # every agent's replies and every host answer, as recorded
    recorded_at: Path  # where the workspace was when the run was recorded


@dataclass(frozen=True)
class NoStart:
    reason: str


def kept_start(store: Path, run_id: str) -> KeptStart | NoStart:
    """The start run `run_id` kept beside the store file `store`, or why there is none."""
    folder = start_beside(store, run_id)
    if folder.is_dir() and not (folder / START_FILE).is_file():
        return _lacks(run_id, folder / START_FILE)
    if not (folder / START_FILE).is_file():
        return NoStart(
            f"run {run_id} kept no starting workspace (only `gg run --record` keeps one, and only "
            f"of a workspace within the bound); it cannot be verified"
        )
    try:
        document = json.loads((folder / START_FILE).read_text(encoding="utf-8"))
        config = Path(str(document["configPath"]))
        recorded_at = Path(str(document["workspace"]))
    except (OSError, ValueError, KeyError, TypeError) as unreadable:
        return NoStart(f"the start of run {run_id} cannot be read ({unreadable}); it cannot be verified")
    start = KeptStart(config, folder / WORKSPACE_DIR, folder / JOURNAL_FILE, recorded_at)
    missing = [p for p in (start.workspace, start.journal, config) if not p.exists()]
    if missing:
        return _lacks(run_id, missing[0])
    return start


def _lacks(run_id: str, missing: Path) -> NoStart:
    return NoStart(f"the start of run {run_id} lacks {escaped(str(missing))}; it cannot be verified")
