"""Scoring a finished workspace: produced files, then a command whose exit 0 means solved, run in a
jail over the workspace with the study's folder shown read-only."""

from __future__ import annotations

import secrets
import socket
import sys
import time
from pathlib import Path

import pytest

import gg
from gg.study.check import Check, CheckVerdict, run_check
from gg.study.check_jail import CheckJail

from .processes import with_command_line


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "answer.txt").write_text("42\n")
    return workspace


def _jail(tmp_path: Path) -> CheckJail:
    return CheckJail(_workspace(tmp_path), tmp_path)


def test_a_command_that_exits_0_in_the_workspace_is_solved(tmp_path: Path) -> None:
    outcome = run_check(Check('test "$(cat answer.txt)" = 42 && echo right', 10), _jail(tmp_path))
    assert outcome.verdict is CheckVerdict.SOLVED and outcome.solved
    assert outcome.exit_code == 0 and outcome.detail == "right\n"


def test_a_command_that_exits_otherwise_fails_with_its_code_and_output(tmp_path: Path) -> None:
    outcome = run_check(Check("echo wrong >&2; exit 3", 10), _jail(tmp_path))
    assert outcome.verdict is CheckVerdict.FAILED and not outcome.solved
    assert outcome.exit_code == 3 and outcome.detail == "wrong\n"


def test_the_whole_output_of_a_check_is_kept_not_its_last_2000_characters(tmp_path: Path) -> None:
    command = 'python3 -c \'print("L" * 5000); print("END")\'; exit 1'
    outcome = run_check(Check(command, 30), _jail(tmp_path))
    assert outcome.verdict is CheckVerdict.FAILED and outcome.detail == "L" * 5000 + "\nEND\n"


def test_an_output_past_16_kib_keeps_its_end_after_a_line_naming_what_was_dropped(tmp_path: Path) -> None:
    command = 'python3 -c \'print("L" * 9999); print("M" * 9999); print("END")\'; exit 1'
    outcome = run_check(Check(command, 30), _jail(tmp_path))
    marker, kept = outcome.detail.split("\n", 1)
    assert (
        marker
        == "[gg: 10000 bytes (1 line) before this were dropped; a check's output is kept to its last 16 KiB]"
    )
    assert kept == "M" * 9999 + "\nEND\n"


def test_a_command_that_cannot_be_found_fails(tmp_path: Path) -> None:
    outcome = run_check(Check("no-such-command-anywhere", 10), _jail(tmp_path))
    assert outcome.verdict is CheckVerdict.FAILED and outcome.exit_code == 127


def test_a_command_past_its_timeout_is_killed_with_what_it_started(tmp_path: Path) -> None:
    marker = f"1000.{secrets.randbelow(10**9):09d}"
    started = time.monotonic()
    outcome = run_check(Check(f"sleep {marker} & echo started; wait", 0.5), _jail(tmp_path))
    assert outcome.verdict is CheckVerdict.TIMED_OUT and outcome.exit_code is None
    assert outcome.detail == "started\n"
    assert time.monotonic() - started < 30
    assert with_command_line(marker) == []


def test_a_missing_produced_file_fails_before_the_command_runs(tmp_path: Path) -> None:
    check = Check("touch ran", 10, produces=("answer.txt", "report.md"))
    jail = _jail(tmp_path)
    outcome = run_check(check, jail)
    assert outcome.verdict is CheckVerdict.MISSING_FILE
    assert outcome.detail == "missing: report.md"
    assert not (jail.workspace / "ran").exists()


def test_produced_files_alone_can_be_the_whole_check(tmp_path: Path) -> None:
    assert run_check(Check(None, 10, produces=("answer.txt",)), _jail(tmp_path)).solved


def test_the_command_is_told_where_the_study_lives_and_may_read_it(tmp_path: Path) -> None:
    (tmp_path / "expected.txt").write_text("42\n")
    check = Check('cmp answer.txt "$GG_STUDY_DIR/expected.txt" && echo "$GG_STUDY_DIR"', 10)
    outcome = run_check(check, _jail(tmp_path))
    assert outcome.solved and outcome.detail == f"{tmp_path.resolve()}\n"


def test_the_command_may_write_in_the_workspace_it_judges(tmp_path: Path) -> None:
    jail = _jail(tmp_path)
    assert run_check(Check("mkdir build && echo built > build/log && cat build/log", 10), jail).solved
    assert (jail.workspace / "build" / "log").read_text() == "built\n"


def test_the_command_cannot_write_outside_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "check.sh").write_text("exit 0\n")
    host_tmp = Path("/tmp") / f"gg-check-escape-{secrets.token_hex(4)}"
    writes = [
        'echo x > "$GG_STUDY_DIR/planted"',
        'echo x >> "$GG_STUDY_DIR/check.sh"',
        "echo x > ../beside",
        "ln -s ../beside-link out && echo x > out",
    ]
    jail = _jail(tmp_path)
    for write in writes:
        outcome = run_check(Check(write, 10), jail)
        assert outcome.verdict is CheckVerdict.FAILED, (write, outcome)
    assert run_check(Check(f"echo x > {host_tmp} && cat {host_tmp}", 10), jail).detail == "x\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["check.sh", "workspace"]
    assert (tmp_path / "check.sh").read_text() == "exit 0\n"
    assert not host_tmp.exists()


def test_the_command_reaches_no_listener_on_the_hosts_loopback_nor_an_outside_address(
    tmp_path: Path,
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(1.0)
        port = listener.getsockname()[1]
        connect = "python3 -c \"import socket; socket.create_connection(('{host}', {port}), 3)\""
        jail = _jail(tmp_path)
        loopback = run_check(Check(connect.format(host="127.0.0.1", port=port), 10), jail)
        assert loopback.verdict is CheckVerdict.FAILED and "ConnectionRefusedError" in loopback.detail
        with pytest.raises(TimeoutError):
            listener.accept()
    outside = run_check(Check(connect.format(host="1.1.1.1", port=80), 10), jail)
    assert outside.verdict is CheckVerdict.FAILED and "Network is unreachable" in outside.detail


def test_the_command_cannot_read_the_run_store_even_under_the_study_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".gg").mkdir()
    (tmp_path / ".gg" / "runs.db").write_text("CANARY-STORE-5be1a0\n")
    monkeypatch.chdir(tmp_path)  # gg runs here: the run store lies in the study's folder
    jail = _jail(tmp_path)
    read = run_check(Check('cat "$GG_STUDY_DIR/.gg/runs.db"', 10), jail)
    assert read.verdict is CheckVerdict.FAILED and "CANARY-STORE" not in read.detail
    assert run_check(Check('ls -A "$GG_STUDY_DIR/.gg" | wc -l', 10), jail).detail == "0\n"


def test_the_command_cannot_read_the_harness_even_under_the_study_folder(tmp_path: Path) -> None:
    repository = Path(gg.__file__).resolve().parents[2]  # gg's own checkout holds its package and venv
    package, environment = Path(gg.__file__).resolve().parent, Path(sys.prefix).resolve()
    assert package.is_relative_to(repository) and environment.is_relative_to(repository)
    jail = CheckJail(_workspace(tmp_path), repository)
    shown = run_check(Check('test -r "$GG_STUDY_DIR/pyproject.toml"', 10), jail)
    assert shown.solved
    for place in (package, environment):
        listed = run_check(Check(f"ls -A {place} | wc -l", 10), jail)
        assert listed.solved and listed.detail == "0\n", (place, listed)
    assert not run_check(Check(f"cat {package}/__init__.py", 10), jail).solved
