"""A disk that fills under a run (a real 2 MiB tmpfs, real ENOSPC, a real `gg run`).

The run ends `internal_error` (exit 1) at once, as gg's own defect: one sentence on stderr names
the file that could not be written and why, no model is asked and no program runs after it, the
run's end is written wherever the record still holds, and nothing says `completed`. A disk full
at launch refuses the run (exit 2).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import gg
from gg.providers.recording import calls_said
from gg.telemetry.ndjson import read_events
from support.mounts import fill, tmpfs

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"
GG = Path(sys.executable).parent / "gg"
TURNS = 13
PADDING = 120_000  # each program carries this many bytes of comment: the record grows fast
LOST = "gg: the run's record is lost: "
AFTER_THE_LOSS = {"model_request", "model_reply", "receipt", "code_execution", "api_call"}


def _example(tmp_path: Path) -> Path:
    """The spec-audit example replaying 13 replies, each a big program; the last finishes."""
    copy = tmp_path / "spec-audit"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    programs = [f"const turn = {n};\n// {'y' * PADDING}\n" for n in range(1, TURNS)]
    programs.append('import { session } from "gg";\nsession.finish("done");\n')
    replies = [{"calls": [{"name": "submit_program", "arguments": {"program": p}}]} for p in programs]
    (copy / "big.jsonl").write_text("".join(json.dumps(reply) + "\n" for reply in replies))
    document = json.loads((copy / "gg.json").read_text())
    document["limits"]["maxTurns"] = 20
    document["agents"][0]["model"]["journal"] = "big.jsonl"
    (copy / "gg.json").write_text(json.dumps(document))
    return copy


def _gg(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GG), *arguments], cwd=cwd, capture_output=True, text=True, timeout=300)


def _ended_at_once(types: list[str]) -> None:
    """No model was asked and no program ran once the record was lost."""
    after = types[types.index("log:the run's record is lost") :]
    assert not AFTER_THE_LOSS & set(after), after


def _types(records: list[dict[str, object]]) -> list[str]:
    return [f"log:{r['message']}" if r["type"] == "log" else str(r["type"]) for r in records]


def test_a_disk_that_fills_mid_run_ends_it_internal_error_at_once_and_never_says_completed(
    tmp_path: Path,
) -> None:
    example = _example(tmp_path)
    with tmpfs(tmp_path / ".gg", "2m"):
        ran = _gg(tmp_path, "run", str(example))
    assert ran.returncode == 1, ran.stdout + ran.stderr
    first = ran.stderr.splitlines()[0]
    assert first.startswith(LOST) and first.endswith("; the run stops.")
    assert f"{tmp_path / '.gg'}/" in first
    assert "(No space left on device)" in first or "(database or disk is full)" in first
    assert "Traceback" not in ran.stderr
    assert "completed" not in ran.stdout and "see it all with" not in ran.stdout
    assert "internal_error · exit 1" in ran.stdout and "its record is incomplete" in ran.stdout
    turns = int(ran.stdout.split("internal_error · exit 1 · ")[1].split(" turn")[0])
    assert turns < TURNS


def test_a_store_that_keeps_writing_holds_the_end_and_names_the_events_file_that_filled(
    tmp_path: Path,
) -> None:
    example = _example(tmp_path)
    with tmpfs(tmp_path / ".gg", "64m"), tmpfs(tmp_path / ".gg" / "runs", "1m"):
        ran = _gg(tmp_path, "run", str(example))
        with gg.open_store(tmp_path) as store:
            run = store.run("latest")
            records = [event.to_wire() for event in run.events()]
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert (run.status, run.exit_code) == ("internal_error", 1)
    events_file = tmp_path / ".gg" / "runs" / run.id / "events.ndjson"
    assert (
        run.message
        == f"the run's record is lost: {events_file} could not be written (No space left on device)"
    )
    assert (
        ran.stderr.splitlines()[0]
        == f"{LOST}{events_file} could not be written (No space left on device); the run stops."
    )
    _ended_at_once(_types(records))
    assert records[-1]["type"] == "run_finished" and records[-1]["status"] == "internal_error"


def test_events_files_that_keep_writing_hold_the_end_and_name_the_store_that_filled(tmp_path: Path) -> None:
    example = _example(tmp_path)
    with tmpfs(tmp_path / ".gg", "2m"), tmpfs(tmp_path / ".gg" / "runs", "64m") as runs:
        ran = _gg(tmp_path, "run", str(example))
        (folder,) = runs.iterdir()
        records = read_events(folder / "events.ndjson")
    assert ran.returncode == 1, ran.stdout + ran.stderr
    end = records[-1]
    assert (end["type"], end["status"], end["exitCode"]) == ("run_finished", "internal_error", 1)
    store = tmp_path / ".gg" / "runs.db"
    assert (
        end["message"] == f"the run's record is lost: {store} could not be written (database or disk is full)"
    )
    _ended_at_once(_types(records))


def test_gg_run_from_python_on_a_disk_that_fills_returns_internal_error(tmp_path: Path) -> None:
    example = _example(tmp_path)
    with tmpfs(tmp_path / "kept" / ".gg", "2m"):
        result = gg.run(example, store=tmp_path / "kept")
    assert (result.status, result.exit_code) == ("internal_error", 1)
    assert result.message is not None and result.message.startswith("the run's record is lost: ")


def test_a_disk_full_at_launch_refuses_the_run(tmp_path: Path) -> None:
    example = _example(tmp_path)
    with tmpfs(tmp_path / ".gg", "1m") as folder:
        fill(folder)
        ran = _gg(tmp_path, "run", str(example))
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert ran.stderr.startswith(f"gg: the run store {folder / 'runs.db'} cannot be used: ")
    assert "Traceback" not in ran.stderr and "completed" not in ran.stdout


def test_a_store_open_elsewhere_on_a_full_disk_refuses_the_run_at_its_first_event(tmp_path: Path) -> None:
    """The store opens (another process holds its WAL open) but cannot keep `run_started`."""
    plain = tmp_path / "plain"
    shutil.copytree(EXAMPLE, plain, ignore=shutil.ignore_patterns("report.md"))
    with tmpfs(tmp_path / ".gg", "4m") as folder:
        first = _gg(tmp_path, "run", str(plain))
        assert first.returncode == 0, first.stderr
        reader = sqlite3.connect(folder / "runs.db")
        reader.execute("SELECT COUNT(*) FROM runs").fetchone()
        fill(folder)
        ran = _gg(tmp_path, "run", str(plain))
        reader.close()
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert ran.stderr.startswith(
        f"{LOST}{folder / 'runs.db'} could not be written (database or disk is full)"
    )
    assert "refused · exit 2" in ran.stdout and "completed" not in ran.stdout


def test_a_recording_whose_disk_fills_mid_run_is_the_run_record_lost_never_a_traceback(
    tmp_path: Path,
) -> None:
    """`--record` to a 1 MiB disk: the journal, rewritten whole after each 120 KB reply, fills it
    mid-run. The run ends `internal_error` naming the journal and why, the journal stays as its
    last whole rewrite left it, and no temporary file is left beside it (a newcomer saw a
    traceback and a `.tmp` file)."""
    example = _example(tmp_path)
    with tmpfs(tmp_path / "recorded", "1m") as folder:
        ran = _gg(tmp_path, "run", str(example), "--record", str(folder / "r.jsonl"))
        left = sorted(path.name for path in folder.iterdir())
        kept = (folder / "r.jsonl").read_text()
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert ran.stderr.splitlines()[0] == (
        f"{LOST}{folder / 'r.jsonl'} could not be written (No space left on device); the run stops."
    )
    assert "Traceback" not in ran.stderr and "internal_error · exit 1" in ran.stdout
    assert left == ["r.jsonl"]
    assert kept.endswith("\n") and 0 < (calls_said(kept) or 0) < TURNS
