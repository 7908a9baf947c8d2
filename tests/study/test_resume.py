"""Resuming a study: a real `gg study run` killed with `kill -9` mid-study, then `--resume`:
no finished cell runs again, none is lost, no run is recorded twice."""

from __future__ import annotations

import os
import secrets
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.runner import FINISHED, Model, ResumeRefused, run_study
from gg.telemetry.layout import events_path
from support.waiting import wait_until

from .processes import (
    RELEASED,
    WAIT_SECS,
    alive,
    checking_workers,
    committed_cells,
    endless,
    released_then,
)
from .studies import arms_study

GG = str(Path(sys.executable).parent / "gg")


def _cells(store: Path) -> dict[tuple[str, str, int], tuple[str, str]]:
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT config, task, repeat, run_id, worker FROM study_cells").fetchall()
    return {(config, task, repeat): (run_id, worker) for config, task, repeat, run_id, worker in rows}


def _runs(store: Path) -> list[str]:
    with sqlite3.connect(store) as db:
        return [run_id for (run_id,) in db.execute("SELECT id FROM runs").fetchall()]


@pytest.mark.timeout(400)  # a real cluster or real gg processes on a shared machine
def test_a_study_killed_with_kill_9_resumes_running_only_its_unfinished_cells(tmp_path: Path) -> None:
    marker = f"killed-mid-study-{secrets.token_hex(4)}"
    file = arms_study(tmp_path / "study", repeats=2, tasks=("word-count", "csv-total"))
    csv_total = 'python3 "$GG_STUDY_DIR/tasks/csv-total/check.py"'
    file.write_text(file.read_text().replace(csv_total, released_then(marker, csv_total)))
    # seed 3 runs two word-count cells first, then a csv-total cell, whose check waits
    base = tmp_path / "base"
    base.mkdir()
    store = base / ".gg" / "runs.db"
    driver = subprocess.Popen(
        [GG, "study", "run", str(file), "--parallel", "1"],
        cwd=base,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: committed_cells(store) >= 2, "two cells to finish", WAIT_SECS)
        wait_until(lambda: bool(checking_workers(marker)), "the third cell to wait at its check", WAIT_SECS)
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait()
    (file.parent / RELEASED).touch()
    before = _cells(store)
    assert len(before) == 2
    workers = {int(worker.rsplit(":", 1)[1]) for _, worker in before.values()}
    wait_until(lambda: not any(alive(pid) for pid in workers), "the killed driver's workers to die", 30)
    with Ledger(store) as ledger:
        killed = ledger.find_study("latest")
    assert killed.shown_status == "interrupted"
    study_id = killed.id

    resumed = subprocess.run(
        [GG, "study", "run", str(file), "--resume", study_id, "--parallel", "2"],
        cwd=base,
        capture_output=True,
        text=True,
    )
    assert resumed.returncode == 0, resumed.stderr
    after = _cells(store)
    assert len(after) == 8
    assert {key: after[key][0] for key in before} == {key: run for key, (run, _) in before.items()}
    assert sorted(_runs(store)) == sorted(run for run, _ in after.values())  # no run twice, none stray
    with Ledger(store) as ledger:
        assert ledger.find_study(study_id).status == FINISHED


def test_a_record_cut_short_before_its_cell_finished_is_discarded_and_its_cell_run_again(
    tmp_path: Path,
) -> None:
    study = load_study(arms_study(tmp_path / "study", repeats=1, tasks=("word-count",)))
    end = run_study(study, LocalPool(1), tmp_path, QuietProgress())
    store = tmp_path / ".gg" / "runs.db"
    cut_short = _cells(store)[("typescript", "word-count", 1)][0]
    with sqlite3.connect(store) as db:  # what a driver killed between the run's record and its result leaves
        db.execute("DELETE FROM study_cells WHERE run_id = ?", (cut_short,))
    resumed = run_study(study, LocalPool(1), tmp_path, QuietProgress(), resume=end.study_id)
    assert resumed.discarded == (cut_short,)
    assert (resumed.status, resumed.finished) == (FINISHED, 2)
    after = _cells(store)
    assert after[("typescript", "word-count", 1)][0] != cut_short
    assert cut_short not in _runs(store) and len(_runs(store)) == 2
    assert not events_path(tmp_path, cut_short).exists()


def test_a_resume_from_a_changed_study_file_is_refused(tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    end = run_study(load_study(file), LocalPool(1), tmp_path, QuietProgress())
    file.write_text(file.read_text().replace("repeats = 1", "repeats = 2"))
    with pytest.raises(ResumeRefused) as in_place:
        run_study(load_study(file), LocalPool(1), tmp_path, QuietProgress(), resume=end.study_id)
    assert str(in_place.value) == (
        f"{file} has changed since {end.study_id} was run from it (or a file it names has);"
        " resume it with the study as it was"
    )
    other = tmp_path / "study" / "other.toml"
    other.write_text(file.read_text())
    with pytest.raises(ResumeRefused) as elsewhere:
        run_study(load_study(other), LocalPool(1), tmp_path, QuietProgress(), resume=end.study_id)
    assert str(elsewhere.value) == (
        f"{end.study_id} was run from a different study file ({file}) than {other}; resume it with that one"
    )
    file.write_text(file.read_text().replace("repeats = 2", "repeats = 1"))
    with pytest.raises(ResumeRefused, match="ran each config with its own model; resume it without --model"):
        run_study(
            load_study(file), LocalPool(1), tmp_path, QuietProgress(), Model("openai", "gpt-x"), end.study_id
        )


@pytest.mark.timeout(400)  # a real cluster or real gg processes on a shared machine
def test_a_study_stopped_with_ctrl_c_exits_130_naming_how_to_resume_it(tmp_path: Path) -> None:
    marker = f"stopped-mid-study-{secrets.token_hex(4)}"
    file = arms_study(tmp_path / "study", repeats=1, tasks=("word-count", "csv-total"))
    word_count = 'python3 "$GG_STUDY_DIR/tasks/word-count/check.py"'
    file.write_text(file.read_text().replace(word_count, released_then(marker, word_count)))
    # seed 3 runs typescript/csv-total first, then javascript/word-count, whose check waits
    store = tmp_path / ".gg" / "runs.db"
    driver = subprocess.Popen(
        [GG, "study", "run", str(file), "--parallel", "1"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: committed_cells(store) >= 1, "a cell to finish", WAIT_SECS)
        wait_until(lambda: bool(checking_workers(marker)), "the next cell to wait at its check", WAIT_SECS)
    finally:
        driver.send_signal(signal.SIGINT)
        _, stderr = driver.communicate(timeout=120)
    (file.parent / RELEASED).touch()
    assert driver.returncode == 130
    with Ledger(store) as ledger:
        stopped = ledger.find_study("latest")
    assert stopped.status == "interrupted"
    assert f"Resume with: gg study run {file} --resume {stopped.id}" in stderr
    resumed = subprocess.run(
        [GG, "study", "run", str(file), "--resume", stopped.id], cwd=tmp_path, capture_output=True, text=True
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(_cells(store)) == 4 and len(_runs(store)) == 4


@pytest.mark.timeout(400)  # real gg processes on a shared machine
@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "interrupted by SIGTERM")],
)
def test_a_study_stopped_mid_cell_says_how_to_resume_and_leaves_no_cell_workspace_behind(
    tmp_path: Path, stop: signal.Signals, code: int, said: str
) -> None:
    marker = f"cut-mid-cell-{secrets.token_hex(4)}"
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",), check=endless(marker))
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    driver = subprocess.Popen(
        [GG, "study", "run", str(file), "--parallel", "2"],
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(
            lambda: len(checking_workers(marker)) == 2, "both cells to wait at their checks", WAIT_SECS
        )
        assert len(list(temporary.glob("gg-cell-*"))) == 2  # each worker's, holding its cell's workspace
    finally:
        driver.send_signal(stop)
        _, stderr = driver.communicate(timeout=120)  # to its end: every worker's stderr closed too
    assert driver.returncode == code, stderr
    with Ledger(tmp_path / ".gg" / "runs.db") as ledger:
        stopped = ledger.find_study("latest")
    assert stopped.status == "interrupted"
    assert (
        f"study {stopped.id} {said}; its finished cells are kept. Resume with: gg study run {file}" in stderr
    )
    assert "driver is gone" not in stderr
    assert list(temporary.iterdir()) == []  # no cell's folder, nor a guest's or a jail's anywhere
