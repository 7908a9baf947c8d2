"""A study's progress off a terminal: one line per finished cell, with solved, spend and time left."""

from __future__ import annotations

import io

from rich.console import Console

from gg.study.cell import CellReport
from gg.study.check import CheckOutcome, CheckVerdict
from gg.study.figures import RunFigures
from gg.study.plan import CellKey
from gg.study.progress import TerminalProgress

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
