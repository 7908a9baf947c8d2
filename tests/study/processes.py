"""Waiting on real processes and on a study's ledger, without sleeping blindly."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

WAIT_SECS = 180.0
POLL_SECS = 0.05


def wait_until(condition: Callable[[], bool], what: str, timeout: float = WAIT_SECS) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(POLL_SECS)


def alive(pid: int) -> bool:
    """Whether `pid` names a live process (a zombie is dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def committed_cells(store: Path) -> int:
    """How many cells the store's studies have finished (0 before the ledger exists)."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store, timeout=10) as db:
            return int(db.execute("SELECT COUNT(*) FROM study_cells").fetchone()[0])
    except sqlite3.OperationalError:  # the tables are not made yet
        return 0
