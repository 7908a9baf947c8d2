"""A study's progress off a terminal: one line per finished cell, with solved, spend and time left."""

from __future__ import annotations

import io
import json

from rich.console import Console

from gg.study.cell import CellReport
from gg.study.check import CheckOutcome, CheckVerdict
from gg.study.display import render_study
from gg.study.figures import RunFigures
from gg.study.plan import CellKey
from gg.study.progress import TerminalProgress
from gg.study.rows import StudyRow

from .rows import cell


def _report(key: CellKey, verdict: CheckVerdict) -> CellReport:
    return CellReport(key, "run-x", (), "completed", CheckOutcome(verdict, 0), "here:1")


def test_each_finished_cell_is_a_line_with_the_tallies_so_far() -> None:
    out = io.StringIO()
    seconds = iter([0.0, 10.0, 20.0])
    progress = TerminalProgress(Console(file=out, width=200), clock=lambda: next(seconds))
    progress.start("study-x", 4, [cell("a", "t1", solved=True, tokens=(100, 20))])
    progress.advance(
        _report(CellKey("a", "t2", 1), CheckVerdict.SOLVED), RunFigures("completed", turns=2, input_tokens=50)
    )
    progress.advance(
        _report(CellKey("b", "t1", 1), CheckVerdict.FAILED), RunFigures("completed", turns=3, cost_usd=0.5)
    )
    assert out.getvalue().splitlines() == [
        "study-x: 4 cells, 1 finished before",
        "cell 2/4 a/t2/1: solved (completed, 2 turns, run-x); solved 2, spend 170 tokens, left 0:20",
        "cell 3/4 b/t1/1: failed (completed, 3 turns, run-x); solved 2, spend $0.5000, left 0:10",
    ]


def test_a_count_of_one_is_said_in_the_singular() -> None:
    out = io.StringIO()
    progress = TerminalProgress(Console(file=out, width=200), clock=lambda: 0.0)
    progress.start("study-x", 1, [])
    progress.advance(_report(CellKey("a", "t1", 1), CheckVerdict.SOLVED), RunFigures("completed", turns=1))
    first, second = out.getvalue().splitlines()
    assert first == "study-x: 1 cell, 0 finished before"
    assert second.startswith("cell 1/1 a/t1/1: solved (completed, 1 turn, run-x)")


def test_a_studys_heading_says_one_config_task_and_repeat_in_the_singular() -> None:
    study = StudyRow(
        id="study-x",
        name="one",
        file="study.toml",
        fingerprint="f",
        configs=json.dumps(["javascript"]),
        tasks=json.dumps(["csv-total"]),
        repeats=1,
        seed=0,
        cells=1,
        model=None,
        executor="local",
        created_at="2026-12-01T00:00:00Z",
        updated_at="2026-12-01T00:00:00Z",
        status="finished",
        pid=None,
        host=None,
    )
    out = io.StringIO()
    render_study(study, 1, Console(file=out, width=200))
    assert "(1 config × 1 task × 1 repeat, seed 0," in out.getvalue()
