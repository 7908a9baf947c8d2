"""A worker that dies mid-cell costs that cell a retry, never a duplicate result; a cell whose
workers keep dying is left unfinished, for a resume, and never recorded as a result; a worker
whose driver is killed exits quietly. (The workers are killed from the host while they wait on a
jailed check: the check cannot reach them.)"""

from __future__ import annotations

import secrets
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.runner import FINISHED, INCOMPLETE, run_study
from support.waiting import wait_until

from .processes import (
    RELEASED,
    WAIT_SECS,
    WorkerKiller,
    alive,
    checking_workers,
    endless,
    released_then,
    with_command_line,
)
from .studies import arms_study
from .test_resume import GG

pytestmark = pytest.mark.timeout(600)  # whole studies of real runs, on a shared machine

REAL_CHECK = 'python3 "$GG_STUDY_DIR/tasks/csv-total/check.py"'


def test_a_cell_whose_worker_dies_is_run_again_and_recorded_once(tmp_path: Path) -> None:
    marker = f"worker-dies-{secrets.token_hex(4)}"
    check = released_then(marker, REAL_CHECK)
    file = arms_study(tmp_path / "study", repeats=2, tasks=("csv-total",), check=check)
    with WorkerKiller(marker, once=True) as killer:
        end = run_study(load_study(file), LocalPool(2), tmp_path, QuietProgress())
    assert killer.kills == 1
    assert (end.status, end.finished, end.lost) == (FINISHED, 4, ())
    with Ledger(tmp_path / ".gg" / "runs.db") as ledger:
        cells = ledger.cells(end.study_id)
    assert sorted(row.attempts for row in cells) == [1, 1, 1, 2]
    assert {(row.config, row.verdict) for row in cells} == {
        ("javascript", "failed"),
        ("typescript", "solved"),
    }
    with sqlite3.connect(tmp_path / ".gg" / "runs.db") as db:
        runs = [run_id for (run_id,) in db.execute("SELECT id FROM runs")]
    assert sorted(runs) == sorted(row.run_id for row in cells)


def test_a_cell_whose_workers_keep_dying_is_left_unfinished(tmp_path: Path) -> None:
    marker = f"workers-die-{secrets.token_hex(4)}"
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",), check=endless(marker))
    study = load_study(file)
    with WorkerKiller(marker, once=False) as killer:
        end = run_study(study, LocalPool(1, max_retries=1), tmp_path, QuietProgress())
    assert killer.kills == 4
    assert (end.status, end.finished) == (INCOMPLETE, 0)
    assert sorted(end.lost) == [
        "javascript/csv-total/1: its worker died 2 times",
        "typescript/csv-total/1: its worker died 2 times",
    ]
    with Ledger(tmp_path / ".gg" / "runs.db") as ledger:
        assert ledger.cells(end.study_id) == []
        assert ledger.find_study(end.study_id).status == INCOMPLETE


def test_workers_whose_driver_was_killed_with_kill_9_exit_without_a_traceback(tmp_path: Path) -> None:
    marker = f"driver-dies-{secrets.token_hex(4)}"
    file = arms_study(
        tmp_path / "study", repeats=1, tasks=("csv-total",), check=released_then(marker, REAL_CHECK)
    )
    base, said = tmp_path / "base", tmp_path / "stderr.txt"
    base.mkdir()
    with said.open("w") as stderr:  # the workers write where the driver does: the operator's terminal
        driver = subprocess.Popen(
            [GG, "study", "run", str(file), "--parallel", "2"],
            cwd=base,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        wait_until(
            lambda: len(checking_workers(marker)) == 2, "both workers to be checking a cell", WAIT_SECS
        )
        workers = checking_workers(marker)
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait()
    driver_said = said.stat().st_size
    (file.parent / RELEASED).touch()  # each worker finishes its cell and reports to no one
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to exit", 120)
    wait_until(lambda: not with_command_line(marker), "their checks to end", 30)
    workers_said = said.read_text()[driver_said:]
    assert "Traceback" not in workers_said and "Error" not in workers_said, workers_said
    lines = workers_said.splitlines()
    assert len(lines) <= len(workers) and all(len(line) <= 100 for line in lines), workers_said
