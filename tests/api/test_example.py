"""`examples/python-api`: run from Python offline with a model scripted in Python, and from the
command line, where its family is imported (`shop:inventory`) or, absent, answered from the recording."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python-api"
GG = Path(sys.executable).parent / "gg"
SUMMARY = "Reserved A-1; short: B-7 (3 short); not stocked: Z-9."


def _run(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | env
    return subprocess.run(
        argv, cwd=cwd, env=environment, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_example_runs_from_python_offline_and_reads_its_run_back(tmp_path: Path) -> None:
    done = _run([sys.executable, str(EXAMPLE / "run.py"), "--record", str(tmp_path / "shop.jsonl")], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:5] == [
        "  turn 1: inventory.reserve -> ok",
        "  turn 1: inventory.count -> ok",
        "  turn 1: inventory.reserve -> ok",
        "  turn 1: inventory.count -> ok",
        "  turn 1: inventory.reserve -> not-found: no item has the SKU 'Z-9'",
    ]
    assert lines[5].endswith(": completed (exit 0) after 2 turns") and lines[6] == f"final text: {SUMMARY}"
    assert lines[7] == "  root: 2 turns, 2 programs, 0 error turns"
    assert lines[8] == "the store keeps 33 events and 2 turns of it"  # with a context_breakdown a turn
    assert (tmp_path / ".gg" / "runs.db").is_file() and '{"hostAnswer"' in (
        tmp_path / "shop.jsonl"
    ).read_text()


def test_the_example_told_to_record_over_an_existing_file_says_so_and_exits_2_without_a_traceback(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "shop.jsonl"
    journal.write_text("kept\n")
    refused = _run([sys.executable, str(EXAMPLE / "run.py"), "--record", str(journal)], tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        "gg.run: 1 defect",
        f"  - record: cannot be written: {journal} already exists; record to a new file (found {journal})",
    ]
    assert refused.stdout == "" and journal.read_text() == "kept\n"
    assert not (tmp_path / ".gg").exists()


def test_the_command_line_runs_the_example_with_its_family_imported_or_from_the_recording(
    tmp_path: Path,
) -> None:
    live = _run([str(GG), "run", str(EXAMPLE), "-v"], tmp_path, PYTHONPATH=str(EXAMPLE))
    assert live.returncode == 0, live.stderr
    assert SUMMARY in live.stdout and "answered from the recording" not in live.stdout + live.stderr
    replayed = _run([str(GG), "run", str(EXAMPLE), "-v"], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert SUMMARY in replayed.stdout
    assert "host families answered from the recording: inventory" in replayed.stdout + replayed.stderr
