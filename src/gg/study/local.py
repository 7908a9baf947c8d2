"""The local executor: a pool of worker processes on this machine, one cell at a time each.

Rules:
- each worker is its own process (forked from a server that has gg imported, where the platform
  has one), keeps its guests warm and its check jail open between cells (`workplace.py`),
  ignores Ctrl-C (the driver handles it and stops the workers) and dies with the driver, even
  when the driver is killed with `kill -9`: a worker in the middle of a cell then finishes it,
  finds no one to report to and exits with one line saying so, never a traceback;
- the driver hands a worker its next cell only when it is idle, so a worker that dies is known to
  have died in the cell it held: that cell is run again on a fresh worker, at most `max_retries`
  times, then delivered `Lost`;
- a worker that reports is handed its next cell before the report is delivered, so the worker
  runs while the driver records;
- each worker works in a folder the driver makes for it (`gg-cell-*` in the temporary folder)
  and removes once the worker has stopped, however it stopped: a worker killed mid-cell (on
  Ctrl-C, on SIGTERM, by the kernel) leaves no workspace behind. The worker's temporary folder
  lies inside it too (`SCRATCH_DIR`), so its guests' and jails' own folders go with it;
- leaving the iteration (at its end, on Ctrl-C, on any error) stops every worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import cast

from gg.study.cell import ArmShelf, CellReport, CellSpec, run_cell
from gg.study.delivery import DEFAULT_MAX_RETRIES, Delivered, Delivery, Lost
from gg.study.workplace import FOLDER_PREFIX, Workplace

__all__ = ["LocalPool"]

STOP_GRACE_SECS = 2.0
SCRATCH_DIR = "tmp"  # the worker's temporary folder, inside its own
_PR_SET_PDEATHSIG = 1


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    folder: Path
    held: CellSpec | None = None


@dataclass
class _Ledger:
    """The cells waiting, and how often each has been started."""

    waiting: deque[CellSpec]
    attempts: dict[str, int] = field(default_factory=dict[str, int])


class LocalPool:
    """Cells in `workers` local processes."""

    name = "local"

    def __init__(self, workers: int, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.workers = workers
        self.max_retries = max_retries
        self._context = _context()

    def joined(self) -> contextlib.AbstractContextManager[None]:
        """Nothing to reach: the workers start with the first cells."""
        return contextlib.nullcontext()

    def run(self, specs: Sequence[CellSpec]) -> Iterator[Delivery]:
        ledger = _Ledger(deque(specs))
        pool: list[_Worker] = []
        try:
            for _ in range(min(self.workers, len(specs))):  # one by one: a stop among them stops each
                pool.append(self._start())
            self._fill(pool, ledger)
            while any(worker.held is not None for worker in pool):
                deliveries = self._collect(pool, ledger)
                self._fill(pool, ledger)
                yield from deliveries
        finally:
            _stop(pool)

    def _start(self) -> _Worker:
        driver_end, worker_end = self._context.Pipe()
        folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
        process = self._context.Process(target=_serve, args=(worker_end, folder), daemon=True)
        try:
            process.start()
        except BaseException:  # a stop while the worker starts: it has no folder to leave
            shutil.rmtree(folder, ignore_errors=True)
            raise
        worker_end.close()
        return _Worker(process, driver_end, folder)

    def _fill(self, pool: list[_Worker], ledger: _Ledger) -> None:
        """Hand every idle worker its next cell."""
        for worker in pool:
            if worker.held is None and ledger.waiting:
                spec = ledger.waiting.popleft()
                ledger.attempts[spec.run_id] = ledger.attempts.get(spec.run_id, 0) + 1
                worker.held = spec
                worker.conn.send(spec)

    def _collect(self, pool: list[_Worker], ledger: _Ledger) -> list[Delivery]:
        """Wait for a worker to report or die; what finished, and what was lost for good (a cell
        lost with retries left goes back to the front of the queue)."""
        holding = [worker for worker in pool if worker.held is not None]
        ready = set(wait([w.conn for w in holding] + [w.process.sentinel for w in holding]))
        deliveries: list[Delivery] = []
        for index, worker in enumerate(pool):
            spec = worker.held
            if spec is None or not ({worker.conn, worker.process.sentinel} & ready):
                continue
            report = _receive(worker)
            worker.held = None
            attempts = ledger.attempts[spec.run_id]
            if report is not None:
                deliveries.append(Delivered(cast(CellReport, report), attempts))
                continue
            pool[index] = self._replace(worker)
            if attempts > self.max_retries:
                deliveries.append(Lost(spec, f"its worker died {attempts} times", attempts))
            else:
                ledger.waiting.appendleft(spec)
        return deliveries

    def _replace(self, worker: _Worker) -> _Worker:
        _stop([worker])
        return self._start()


def _receive(worker: _Worker) -> object | None:
    """The report a worker sent, or None when it died without sending one."""
    with contextlib.suppress(EOFError, OSError):
        if worker.conn.poll():
            return worker.conn.recv()
    return None


def _stop(pool: list[_Worker]) -> None:
    for worker in pool:
        with contextlib.suppress(OSError, BrokenPipeError):
            worker.conn.send(None)
    for worker in pool:
        worker.process.join(STOP_GRACE_SECS if worker.held is None else 0)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.conn.close()
        shutil.rmtree(worker.folder, ignore_errors=True)


def _serve(conn: Connection, folder: Path) -> None:
    """A worker: run each cell the driver hands over, in `folder`, until it hands over None or
    goes away."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    scratch = folder / SCRATCH_DIR  # every guest's and jail's folder, removed with the worker's
    try:
        scratch.mkdir()
    except FileNotFoundError:  # the driver stopped, and removed the folder, before it began
        return
    tempfile.tempdir = str(scratch)
    shelf, workplace = ArmShelf(), Workplace(folder)
    try:
        while (spec := _next_cell(conn)) is not None:
            report = run_cell(spec, shelf, workplace)
            try:
                conn.send(report)
            except OSError:  # a broken pipe, a reset: the driver was killed while the cell ran
                _say(f"gg study worker {os.getpid()}: its driver is gone; stopping")
                return
    finally:
        shelf.close()
        workplace.close()


def _next_cell(conn: Connection) -> CellSpec | None:
    """The next cell the driver hands over; None when it says stop or is gone."""
    try:
        return cast(CellSpec | None, conn.recv())
    except (EOFError, OSError):
        return None


def _say(line: str) -> None:
    """One line on the worker's stderr (the driver's terminal), unless that is gone too."""
    with contextlib.suppress(OSError):
        print(line, file=sys.stderr, flush=True)


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (nothing elsewhere)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _context() -> ForkServerContext | SpawnContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["gg.study.cell"])
        return context
    return multiprocessing.get_context("spawn")
