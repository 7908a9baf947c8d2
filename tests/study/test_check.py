"""Scoring a finished workspace: produced files, then a command whose exit 0 means solved."""

from __future__ import annotations

import time
from pathlib import Path

from gg.study.check import Check, CheckVerdict, run_check

from .processes import alive, wait_until


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "answer.txt").write_text("42\n")
    return workspace


def test_a_command_that_exits_0_in_the_workspace_is_solved(tmp_path: Path) -> None:
    outcome = run_check(
        Check('test "$(cat answer.txt)" = 42 && echo right', 10), _workspace(tmp_path), tmp_path
    )
    assert outcome.verdict is CheckVerdict.SOLVED and outcome.solved
    assert outcome.exit_code == 0 and outcome.detail == "right\n"


def test_a_command_that_exits_otherwise_fails_with_its_code_and_output(tmp_path: Path) -> None:
    outcome = run_check(Check("echo wrong >&2; exit 3", 10), _workspace(tmp_path), tmp_path)
    assert outcome.verdict is CheckVerdict.FAILED and not outcome.solved
    assert outcome.exit_code == 3 and outcome.detail == "wrong\n"


def test_a_command_that_cannot_be_found_fails(tmp_path: Path) -> None:
    outcome = run_check(Check("no-such-command-anywhere", 10), _workspace(tmp_path), tmp_path)
    assert outcome.verdict is CheckVerdict.FAILED and outcome.exit_code == 127


def test_a_command_past_its_timeout_is_killed_with_what_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    started = time.monotonic()
    outcome = run_check(Check(f"sleep 60 & echo $! > {pid_file}; wait", 0.5), _workspace(tmp_path), tmp_path)
    assert outcome.verdict is CheckVerdict.TIMED_OUT and outcome.exit_code is None
    assert time.monotonic() - started < 30
    child = int(pid_file.read_text())
    wait_until(lambda: not alive(child), f"the check's child {child} to die", timeout=10)


def test_a_missing_produced_file_fails_before_the_command_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    check = Check(f"touch {marker}", 10, produces=("answer.txt", "report.md"))
    outcome = run_check(check, _workspace(tmp_path), tmp_path)
    assert outcome.verdict is CheckVerdict.MISSING_FILE
    assert outcome.detail == "missing: report.md"
    assert not marker.exists()


def test_produced_files_alone_can_be_the_whole_check(tmp_path: Path) -> None:
    assert run_check(Check(None, 10, produces=("answer.txt",)), _workspace(tmp_path), tmp_path).solved


def test_the_command_is_told_where_the_study_lives(tmp_path: Path) -> None:
    (tmp_path / "expected.txt").write_text("42\n")
    check = Check('cmp answer.txt "$GG_STUDY_DIR/expected.txt"', 10)
    assert run_check(check, _workspace(tmp_path), tmp_path).solved
