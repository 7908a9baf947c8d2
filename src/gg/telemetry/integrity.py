"""The run store's check when it is opened to be written: SQLite's own `quick_check`, bounded.

Rules:
- A store opened to be written is checked before anything is written to it, by
  `PRAGMA quick_check` (every page's structure, without comparing indexes to tables); a store it
  finds damaged, or that SQLite cannot read as a database at all (truncated, overwritten,
  garbage), is refused with `StoreDamaged`, naming the file and the way out (`way_out`).
- The check stops after `CHECK_BOUND_SECS`, so a big store costs a launch at most that much; a
  store it could not finish in that time is accepted (`StoreCheck.finished` is False, and
  `note` says so for the operator).
- Readers that meet a damaged file say the same (`damaged`).
- A failure that is not about the file's contents (it cannot be opened, it is locked) is not a
  damaged store: it is raised as SQLite raised it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gg.telemetry.layout import runs_beside
from gg.wire import escaped

CHECK_BOUND_SECS = 1.0
PROGRESS_STEPS = 20_000  # SQLite VM steps between two looks at the clock
MAX_PROBLEMS_SHOWN = 1
_INTERRUPTED = "interrupted"


class StoreDamaged(Exception):
    """The store's file is damaged; the message names what SQLite found and the way out."""


@dataclass(frozen=True)
class StoreCheck:
    """How the check on open went: finished (nothing found), or stopped at its bound."""

    path: Path
    finished: bool
    seconds: float

    @property
    def note(self) -> str | None:
        """What the operator is told of a check stopped at its bound; None for a finished one."""
        if self.finished:
            return None
        return (
            f"the run store {escaped(str(self.path))} was checked in part: SQLite's quick_check "
            f"stops after {CHECK_BOUND_SECS:g} s and found no damage in what it read"
        )


def way_out(path: Path) -> str:
    """The way out of a damaged store at `path`: the command that rebuilds it from the runs'
    events files beside it; where none lie (`runs/` beside it), that it is no run store to rebuild."""
    beside = runs_beside(path)
    if not beside.is_dir():
        return f"no runs' events files lie beside it ({escaped(str(beside))}): is it a gg run store?"
    return f"rebuild it from its runs' events files with: gg store rebuild --store {escaped(str(path))}"


def check_store(
    db: sqlite3.Connection,
    path: Path,
    bound_secs: float = CHECK_BOUND_SECS,
    clock: Callable[[], float] = time.monotonic,
) -> StoreCheck:
    """Run SQLite's `quick_check` on `db` for at most `bound_secs`; raises `StoreDamaged`."""
    started = clock()
    deadline = started + bound_secs
    db.set_progress_handler(lambda: int(clock() > deadline), PROGRESS_STEPS)
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError as failed:
        if _INTERRUPTED not in str(failed):
            raise
        return StoreCheck(path, finished=False, seconds=clock() - started)
    except sqlite3.DatabaseError as unreadable:
        raise StoreDamaged(damaged(path, str(unreadable))) from None
    finally:
        db.set_progress_handler(None, 0)
    problems = [str(row[0]) for row in rows if row[0] != "ok"]
    if problems:
        raise StoreDamaged(damaged(path, "; ".join(problems[:MAX_PROBLEMS_SHOWN])))
    return StoreCheck(path, finished=True, seconds=clock() - started)


def damaged(path: Path, found: str) -> str:
    """What is said of the store at `path` that SQLite found damaged (`found`): that, and the way
    out."""
    what = "it is not an SQLite database, or one damaged" if "not a database" in found else "it is damaged"
    return f"{what} (SQLite says: {escaped(found)}); {way_out(path)}"
