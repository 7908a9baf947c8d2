"""Guest processes handed out by lease: a program that runs holds one process of its own for its
whole run, so a program waiting in a host call (a parent waiting for its sub-agents) never stops
another agent's program on the same arm.

Rules kept here:
- `lease(need)` hands out an idle process that fits `need` (one the caller `prefer`s first, then
  the one given back last), else starts a new one; when no idle process fits, the last one given
  back is stopped first, so a larger need replaces a process rather than adding one. A process
  that died while idle is never handed out;
- starting happens outside the lock: a slow start holds up no one else;
- the lease ends with its `with` block: the process goes back to the idle spares, the one idle
  longest stopped past `spares`; it is stopped instead when the block raised, when its holder
  `discard`ed it (at once, or on a thread of its own), or when `close()` came in between;
- a process discarded with `replace` while it was still leased (not closed meanwhile) is
  replaced by one started on a thread of its own, which
  joins the idle spares when it is ready (unless the spares are full or `close()` came in
  between), so the next program does not wait for a start; a replacement that fails to start
  leaves the next lease to start its own;
- `close()` stops every process, idle and leased, at once and from any thread (a program running
  on another thread ends as a lost engine): every one is killed before any is reaped, and they
  are reaped side by side, so closing many takes the time of one; a later lease starts a new
  process;
- `latest` is the process the last lease was given, while the pool still holds it; `started`
  counts the processes started;
- an arm's guests are two a core (`GUESTS`): a run lets no more of an arm's turns compute at
  once (`gg.agents.leases`), and a pool keeps as many idle processes, so a process given back
  while the run computes that many is kept for the next program, never stopped and started again.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Generator
from typing import Generic, Protocol, TypeVar

from gg.errors import GgDefect


def cores() -> int:
    """The processors gg may run on: its affinity mask, where the platform keeps one."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


GUESTS_PER_CORE = 2
GUESTS = GUESTS_PER_CORE * cores()  # an arm's turns computing at once, and the idle processes kept


class Leasable(Protocol):
    def alive(self) -> bool: ...

    def stop(self) -> None:
        """Kill the process now; reaping it is `kill`'s."""
        ...

    def kill(self) -> None: ...


P = TypeVar("P", bound=Leasable)


class Leases(Generic[P]):
    """The processes of one pool: `start(need)` makes one, `fits(process, need)` says whether an
    idle one will do."""

    def __init__(
        self, start: Callable[[int], P], fits: Callable[[P, int], bool], spares: int = GUESTS
    ) -> None:
        self._start = start
        self._fits = fits
        self._spares = spares
        self._lock = threading.Lock()
        self._idle: list[P] = []
        self._leased: list[P] = []
        self._latest: P | None = None
        self._started = 0
        self._closings = 0  # how many times `close()` came: a replacement started before is not kept

    @property
    def latest(self) -> P | None:
        return self._latest

    @property
    def started(self) -> int:
        return self._started

    def idle(self) -> list[P]:
        """The processes idle now."""
        with self._lock:
            return list(self._idle)

    @contextlib.contextmanager
    def lease(self, need: int, prefer: Callable[[P], bool] | None = None) -> Generator[P]:
        """A process of the caller's own for the `with` block; an idle one `prefer` picks, if
        it fits, before the others."""
        process = self._take(need, prefer)
        try:
            yield process
        except BaseException:
            self.discard(process)
            raise
        self._give_back(process)

    def discard(self, process: P, *, later: bool = False, replace: int | None = None) -> None:
        """Stop a leased process; it never goes back to the spares. `later` leaves its stopping to
        a thread of its own (the caller stopped what it ran already), so the caller goes on at
        once; `replace` starts a process for that need in its place, on a thread of its own."""
        with self._lock:
            held = process in self._leased
            self._forget(process)
            closings = self._closings
        if later:
            threading.Thread(target=process.kill, daemon=True).start()
        else:
            process.kill()
        if replace is not None and held:
            threading.Thread(target=self._replace, args=(replace, closings), daemon=True).start()

    def close(self) -> None:
        with self._lock:
            doomed = [*self._idle, *self._leased]
            self._idle, self._leased, self._latest = [], [], None
            self._closings += 1
        for process in doomed:
            process.stop()
        reapers = [threading.Thread(target=process.kill, daemon=True) for process in doomed]
        for reaper in reapers:
            reaper.start()
        for reaper in reapers:
            reaper.join()

    def _replace(self, need: int, closings: int) -> None:
        try:
            process = self._start(need)
        except GgDefect:
            return  # the next lease starts its own, and meets the failure there
        with self._lock:
            if closings == self._closings and len(self._idle) < self._spares:
                self._started += 1
                self._idle.append(process)
                return
        process.kill()

    def _take(self, need: int, prefer: Callable[[P], bool] | None = None) -> P:
        with self._lock:
            process, doomed = self._pick(need, prefer)
            if process is not None:
                self._hold(process)
        for stale in doomed:
            stale.kill()
        if process is None:
            process = self._start(need)
            with self._lock:
                self._started += 1
                self._hold(process)
        return process

    def _pick(self, need: int, prefer: Callable[[P], bool] | None) -> tuple[P | None, list[P]]:
        """An idle process that fits `need` (a preferred one first), and the idle ones to stop
        (dead, or in its way)."""
        dead = [process for process in self._idle if not process.alive()]
        self._idle = [process for process in self._idle if process not in dead]
        preferred = [process for process in self._idle if prefer is not None and prefer(process)]
        for process in [*reversed(preferred), *reversed(self._idle)]:
            if self._fits(process, need):
                self._idle.remove(process)
                return process, dead
        in_the_way, self._idle = self._idle[-1:], self._idle[:-1]
        return None, dead + in_the_way

    def _hold(self, process: P) -> None:
        self._leased.append(process)
        self._latest = process

    def _give_back(self, process: P) -> None:
        with self._lock:
            if process not in self._leased:
                return  # discarded, or closed meanwhile: already stopped
            self._leased.remove(process)
            self._idle.append(process)
            doomed = self._idle[: max(len(self._idle) - self._spares, 0)]
            for stale in doomed:
                self._forget(stale)
        for stale in doomed:
            stale.kill()

    def _forget(self, process: P) -> None:
        if process in self._leased:
            self._leased.remove(process)
        if process in self._idle:
            self._idle.remove(process)
        if self._latest is process:
            self._latest = None
