"""What a recorded run started from, kept beside its events so the run can be played back and
verified (`gg replay --verify`, `gg.playback`).

Rules:
- Only a recorded run keeps its start (`gg run --record`, `gg.run(record=...)`), in
  `<base>/.gg/runs/<run-id>/start/`: `workspace/` (a copy of the workspace as it stood before the
  first turn), `journal.jsonl` (the recording, rewritten there beside the file the operator named
  each time that one is) and `start.json` (`configPath` and `workspace`, both absolute).
- The copy is bounded: at most 64 MiB of file contents and 10,000 entries (`KEPT_BYTES`,
  `KEPT_ENTRIES`). A workspace over either bound is not kept at all, never a part of it: `keep_start`
  answers the sentence the operator is told, and the run goes on without a start to verify from. So
  does a copy the disk refuses (its partial folder is removed).
- Links are kept as links, never followed; what is neither a file, a folder nor a link (a FIFO, a
  socket) is left out and does not count.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from gg.telemetry.layout import start_beside
from gg.wire import escaped

KEPT_BYTES = 64 * 1024 * 1024
KEPT_ENTRIES = 10_000
START_FILE = "start.json"
WORKSPACE_DIR = "workspace"
JOURNAL_FILE = "journal.jsonl"


class KeepsCopy(Protocol):
    """A recorder that can keep a second copy of its journal (`JournalRecorder`)."""

    def keep_copy(self, path: Path) -> None: ...


@dataclass(frozen=True)
class Size:
    bytes: int = 0
    entries: int = 0

    @property
    def over(self) -> bool:
        return self.bytes > KEPT_BYTES or self.entries > KEPT_ENTRIES


def keep_start(
    store: Path, run_id: str, config_path: Path, workspace: Path, recorder: KeepsCopy
) -> str | None:
    """Keep the start of run `run_id`; None when kept (or when there is no workspace folder to keep,
    which refuses the launch itself), else the sentence saying why it was not."""
    if not workspace.is_dir():
        return None
    size = measured(workspace)
    if size.over:
        return (
            f"gg: the workspace holds more than a recorded run keeps of its start ({_mib(KEPT_BYTES)} "
            f"of files, {KEPT_ENTRIES} entries); run {run_id} is recorded, but `gg replay --verify` "
            "cannot verify it"
        )
    folder = start_beside(store, run_id)
    try:
        folder.mkdir(parents=True)
        shutil.copytree(workspace, folder / WORKSPACE_DIR, symlinks=True, ignore=_specials)
        recorder.keep_copy(folder / JOURNAL_FILE)
        start = {"configPath": str(config_path.resolve()), "workspace": str(workspace.resolve())}
        (folder / START_FILE).write_text(json.dumps(start), encoding="utf-8")
    except OSError as refused:
        shutil.rmtree(folder, ignore_errors=True)
        return (
            f"gg: the start of run {run_id} could not be kept in {escaped(str(folder))} ({refused}); "
            "the run is recorded, but `gg replay --verify` cannot verify it"
        )
    except BaseException:  # a stop (Ctrl-C, SIGTERM) mid-copy leaves no half of a start behind
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return None


def measured(workspace: Path) -> Size:
    """What copying `workspace` would keep, counted until it is over a bound."""
    total, entries = 0, 0
    for top, folders, files in os.walk(workspace):
        for name in (*folders, *files):
            mode = os.lstat(os.path.join(top, name)).st_mode
            if stat.S_ISREG(mode):
                total += os.lstat(os.path.join(top, name)).st_size
            elif not (stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
                continue
            entries += 1
        if Size(total, entries).over:
            break
    return Size(total, entries)


def _specials(folder: str, names: list[str]) -> set[str]:
    """What a copy leaves out: entries that are neither files, folders nor links."""

    def special(name: str) -> bool:
        mode = os.lstat(os.path.join(folder, name)).st_mode
        return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))

    return {name for name in names if special(name)}


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"
