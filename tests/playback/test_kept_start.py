"""What a recorded run keeps of its start (`gg.telemetry.start`): the workspace as it stood and the
recording, within 64 MiB of files and 10,000 entries, and nothing of a workspace over either."""

from __future__ import annotations

import json
import os
from pathlib import Path

from gg.providers.recording import JournalRecorder
from gg.record.start import KeptStart, NoStart, kept_start
from gg.telemetry.start import keep_start


def _workspace(base: Path, files: int) -> Path:
    folder = base / "workspace"
    (folder / "notes").mkdir(parents=True)
    for n in range(files - 1):  # the `notes` folder is one entry
        (folder / "notes" / f"{n}.md").write_text(f"note {n}\n")
    return folder


def test_a_workspace_of_10000_entries_is_kept_with_the_recording_and_read_back(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, 10_000)
    os.mkfifo(workspace / "pipe")  # neither file, folder nor link: left out, not counted
    recorder = JournalRecorder.create(tmp_path / "run.jsonl")
    config = tmp_path / "gg.json"
    config.write_text("{}")
    assert keep_start(tmp_path / ".gg" / "runs.db", "run-1", config, workspace, recorder) is None
    (workspace / "notes" / "0.md").write_text("changed by the run\n")
    start = kept_start(tmp_path / ".gg" / "runs.db", "run-1")
    assert isinstance(start, KeptStart) and start.config_path == config.resolve()
    assert (start.workspace / "notes" / "0.md").read_text() == "note 0\n"
    assert (
        len(list((start.workspace / "notes").iterdir())) == 9_999 and not (start.workspace / "pipe").exists()
    )
    assert start.journal.read_text() == (tmp_path / "run.jsonl").read_text()
    assert json.loads((start.workspace.parent / "start.json").read_text())["workspace"] == str(workspace)


def test_a_workspace_of_10001_entries_is_not_kept_and_reads_as_no_start(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, 10_001)
    recorder = JournalRecorder.create(tmp_path / "run.jsonl")
    unkept = keep_start(tmp_path / ".gg" / "runs.db", "run-1", tmp_path / "gg.json", workspace, recorder)
    assert unkept == (
        "gg: the workspace holds more than a recorded run keeps of its start (64.0 MiB of files, 10000 "
        "entries); run run-1 is recorded, but `gg replay --verify` cannot verify it"
    )
    assert not (tmp_path / ".gg" / "runs" / "run-1").exists()
    assert isinstance(kept_start(tmp_path / ".gg" / "runs.db", "run-1"), NoStart)


def test_the_recording_is_kept_as_it_grows(tmp_path: Path) -> None:
    from gg.providers.base import Reply, Usage

    recorder = JournalRecorder.create(tmp_path / "run.jsonl")
    recorder.keep_copy(tmp_path / "copy.jsonl")
    recorder.record_reply(Reply("hello", (), Usage(3, 4), "m"), "root")
    assert '"text": "hello"' in (tmp_path / "copy.jsonl").read_text()
    assert (tmp_path / "copy.jsonl").read_text() == (tmp_path / "run.jsonl").read_text()
