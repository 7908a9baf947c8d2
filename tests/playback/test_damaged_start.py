"""A recorded run whose kept start was damaged is a run that cannot be played (exit 2), never a
divergence: the refusal names the file, and for a recording the line, that cannot be read."""

from __future__ import annotations

from pathlib import Path

import pytest

from playback.recorded import gg, recorded


def _start(base: Path, run_id: str) -> Path:
    return base / ".gg" / "runs" / run_id / "start"


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("garbage", "line 3: not valid JSON"),
        ("truncated", "not valid JSON"),
        ("emptied", "journal: a replay journal needs at least one reply (found no replies)"),
        ("cut at a line's end", "journal: must hold the 5 model call(s) its first line says (found 2)"),
    ],
)
def test_a_recording_that_cannot_be_read_is_refused_naming_the_file_and_the_line(
    tmp_path: Path, damage: str, said: str
) -> None:
    run_id = recorded(tmp_path, "spec-audit")
    journal = _start(tmp_path, run_id) / "journal.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    assert len(lines) > 3
    if damage == "garbage":
        lines[2] = "garbage" + lines[2]
        journal.write_text("".join(lines))
    elif damage == "truncated":
        journal.write_bytes(journal.read_bytes()[:500])
    elif damage == "emptied":
        journal.write_text("")
    else:
        journal.write_text("".join(lines[:3]))
    refused = gg(tmp_path, "replay", "--verify", run_id)
    assert refused.exit_code == 2, refused.output
    assert refused.stdout == ""
    assert refused.stderr.startswith(
        f"gg replay --verify: the recording of run {run_id} cannot be read, so it cannot be verified: "
        f"{journal}: 1 defect\n  - "
    )
    assert said in refused.stderr


def test_a_start_that_lost_its_start_json_names_the_missing_file(tmp_path: Path) -> None:
    run_id = recorded(tmp_path, "spec-audit")
    kept = _start(tmp_path, run_id) / "start.json"
    kept.unlink()
    refused = gg(tmp_path, "replay", "--verify", run_id)
    assert refused.exit_code == 2, refused.output
    assert refused.stderr == (
        f"gg replay --verify: the start of run {run_id} lacks {kept}; it cannot be verified\n"
    )
