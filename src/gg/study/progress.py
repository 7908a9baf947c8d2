"""How a running study shows itself: cells done, solved so far, spend so far, time left.

- On a terminal: one live bar on stderr. Elsewhere (a log, CI): one line per finished cell.
- Spend is the priced replies' cost when any reply was priced, else the tokens spent.
- Time left is the time per cell finished by this driver so far, times the cells left.
- `QuietProgress` shows nothing (tests, benchmarks).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeRemainingColumn
from rich.progress import Progress as Bar

from gg.study.cell import CellReport
from gg.study.figures import RunFigures
from gg.study.plan import CellKey
from gg.study.rows import CellRow
from gg.terminal.glyphs import plural

__all__ = ["QuietProgress", "StudyProgress", "TerminalProgress"]


class StudyProgress(Protocol):
    def start(self, study_id: str, total: int, finished: Sequence[CellRow]) -> None: ...

    def advance(self, report: CellReport, figures: RunFigures) -> None: ...

    def lost(self, key: CellKey, reason: str) -> None: ...

    def stop(self) -> None: ...


class QuietProgress:
    def start(self, study_id: str, total: int, finished: Sequence[CellRow]) -> None:
        pass

    def advance(self, report: CellReport, figures: RunFigures) -> None:
        pass

    def lost(self, key: CellKey, reason: str) -> None:
        pass

    def stop(self) -> None:
        pass


class _Tally:
    """What the study has done so far."""

    def __init__(self, total: int, finished: Sequence[CellRow], clock: Callable[[], float]) -> None:
        self.total = total
        self.done = len(finished)
        self.solved = sum(row.solved for row in finished)
        self.cost = sum(row.cost_usd or 0.0 for row in finished)
        self.priced = any(row.cost_usd is not None for row in finished)
        self.tokens = sum(row.tokens for row in finished)
        self._clock = clock
        self._started = clock()
        self._done_here = 0

    def add(self, solved: bool, figures: RunFigures) -> None:
        self.done += 1
        self._done_here += 1
        self.solved += solved
        self.tokens += figures.tokens
        if figures.cost_usd is not None:
            self.cost += figures.cost_usd
            self.priced = True

    @property
    def spend(self) -> str:
        return f"${self.cost:.4f}" if self.priced else f"{self.tokens:,} tokens"

    @property
    def left(self) -> str:
        if not self._done_here:
            return "?"
        seconds = (self._clock() - self._started) / self._done_here * (self.total - self.done)
        return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


class TerminalProgress:
    """A live bar on a terminal, one line per cell elsewhere (both on `console`)."""

    def __init__(self, console: Console, clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self._clock = clock
        self._tally: _Tally | None = None
        self._bar: Bar | None = None
        self._task = TaskID(0)

    def start(self, study_id: str, total: int, finished: Sequence[CellRow]) -> None:
        self._tally = _Tally(total, finished, self._clock)
        if not self.console.is_terminal:
            self.console.print(f"{study_id}: {plural(total, 'cell')}, {len(finished)} finished before")
            return
        self._bar = Bar(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("solved {task.fields[solved]}"),
            TextColumn("spend {task.fields[spend]}"),
            TimeRemainingColumn(),
            console=self.console,
            transient=False,
        )
        self._bar.start()
        tally = self._tally
        self._task = self._bar.add_task(
            study_id, total=total, completed=len(finished), solved=tally.solved, spend=tally.spend
        )

    def advance(self, report: CellReport, figures: RunFigures) -> None:
        tally = self._tally
        assert tally is not None
        tally.add(report.check.solved, figures)
        if self._bar is not None:
            self._bar.update(self._task, completed=tally.done, solved=tally.solved, spend=tally.spend)
            return
        self.console.print(
            f"cell {tally.done}/{tally.total} {report.key.label}: {report.check.verdict.value}"
            f" ({report.status}, {plural(figures.turns, 'turn')}, {report.run_id}); solved {tally.solved},"
            f" spend {tally.spend}, left {tally.left}",
            highlight=False,
            soft_wrap=True,
        )

    def lost(self, key: CellKey, reason: str) -> None:
        self.console.print(f"cell {key.label} left unfinished: {reason}", highlight=False)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
