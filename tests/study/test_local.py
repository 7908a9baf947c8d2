"""A worker that dies mid-cell costs that cell a retry, never a duplicate result; a cell whose
workers keep dying is left unfinished, for a resume, and never recorded as a result. (The
workers are killed from the host while they wait on a jailed check: the check cannot reach them.)"""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

import pytest

from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.runner import FINISHED, INCOMPLETE, run_study

from .processes import WorkerKiller, endless, released_then
from .studies import arms_study

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
