"""A run as the store's `runs` table keeps it, and the status shown for it.

Rules:
- Until `run_finished` writes its status a run is `running`; `shown_status` tells `unfinished`
  when its process on this host is gone without writing its end (`kill -9`, a crash, a lost
  machine): such a run has no exit code.
- How long a run took is its recorded duration, else (a run still going, or killed) the time from
  its start to its last event.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass

from gg.record.tally import Tally
from gg.telemetry.clock import parse_timestamp

RUNNING = "running"
INTERRUPTED = "interrupted"
TIMED_OUT = "timed_out"
UNFINISHED = "unfinished"


@dataclass(frozen=True)
class RunRow:
    """One run as the `runs` table holds it."""

    id: str
    name: str
    config_path: str
    workspace: str
    model: str
    language: str
    started_at: str
    updated_at: str
    finished_at: str | None
    status: str
    exit_code: int | None
    turns: int
    duration_ms: float | None
    final_text: str | None
    message: str | None
    events: int
    pid: int | None
    host: str | None


@dataclass(frozen=True)
class ListedRun:
    """A run as `gg runs` lists it: its row, the status shown for it, and its tally."""

    row: RunRow
    status: str
    tally: Tally


def process_alive(pid: int) -> bool:
    """Whether a process with this id exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def elapsed_ms(row: RunRow) -> float | None:
    """How long a run took: its recorded duration, else the time from its start to its last event."""
    if row.duration_ms is not None:
        return row.duration_ms
    start, last = parse_timestamp(row.started_at), parse_timestamp(row.updated_at)
    if start is None or last is None:
        return None
    return (last - start).total_seconds() * 1000


def shown_status(row: RunRow, host: str | None = None, alive: Callable[[int], bool] = process_alive) -> str:
    """The status to show: a `running` row whose process on this host is gone is `unfinished`."""
    if row.status != RUNNING or row.pid is None or row.host != (host or socket.gethostname()):
        return row.status
    return RUNNING if alive(row.pid) else UNFINISHED
