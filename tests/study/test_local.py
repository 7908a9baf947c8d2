"""A worker that dies mid-cell costs that cell a retry, never a duplicate result; a cell whose
workers keep dying is left unfinished, for a resume, and never recorded as a result."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.runner import FINISHED, INCOMPLETE, run_study

from .studies import arms_study

pytestmark = pytest.mark.timeout(600)  # whole studies of real runs, on a shared machine

REAL_CHECK = 'python3 "$GG_STUDY_DIR/tasks/csv-total/check.py"'


def kill_the_first_worker(marker: Path) -> str:
    """A check command that kills its worker (the shell's parent) the first time it runs."""
    return f'if mkdir "{marker}" 2>/dev/null; then kill -9 $PPID; sleep 5; fi; {REAL_CHECK}'


def test_a_cell_whose_worker_dies_is_run_again_and_recorded_once(tmp_path: Path) -> None:
    marker = tmp_path / "killed-once"
    file = arms_study(
        tmp_path / "study", repeats=2, tasks=("csv-total",), check=kill_the_first_worker(marker)
    )
    end = run_study(load_study(file), LocalPool(2), tmp_path, QuietProgress())
    assert marker.is_dir()
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
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",), check="kill -9 $PPID; sleep 5")
    study = load_study(file)
    end = run_study(study, LocalPool(1, max_retries=1), tmp_path, QuietProgress())
    assert (end.status, end.finished) == (INCOMPLETE, 0)
    assert sorted(end.lost) == [
        "javascript/csv-total/1: its worker died 2 times",
        "typescript/csv-total/1: its worker died 2 times",
    ]
    with Ledger(tmp_path / ".gg" / "runs.db") as ledger:
        assert ledger.cells(end.study_id) == []
        assert ledger.find_study(end.study_id).status == INCOMPLETE
