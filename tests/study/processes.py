"""Waiting on real processes and on a study's ledger, without sleeping blindly."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
from pathlib import Path
from types import TracebackType

from support.waiting import wait_until

POLL_SECS = 0.05
WAIT_SECS = 180.0  # how long a study's step may take on a loaded machine before it is a hang


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


def with_command_line(text: str) -> list[int]:
    """The live host processes whose command line holds `text`."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        try:
            held = entry.name.isdigit() and text.encode() in (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if held and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


RELEASED = "released"


def released_then(marker: str, command: str) -> str:
    """A check command, marked, that waits until a `WorkerKiller` releases it, then runs `command`."""
    return f': {marker}; until [ -e "$GG_STUDY_DIR/{RELEASED}" ]; do sleep 0.05; done; {command}'


def endless(marker: str) -> str:
    """A check command, marked, that runs until its worker is killed."""
    return f": {marker}; sleep 600"


class WorkerKiller:
    """Kills, from the host, each study worker running a jailed check command that holds `marker`,
    as an out-of-memory killer would (a jailed check cannot reach its worker). With `once`, only
    the first, after which it releases every check waiting in that study folder (`released_then`)."""

    def __init__(self, marker: str, once: bool) -> None:
        self.marker = marker
        self.once = once
        self.kills = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._hunt, daemon=True)

    def __enter__(self) -> WorkerKiller:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _hunt(self) -> None:
        while not self._stop.wait(POLL_SECS):
            found = _jailed_check(self.marker)
            if found is None:
                continue
            jail, worker, study = found
            os.kill(worker, signal.SIGKILL)
            self.kills += 1
            if self.once:
                (study / RELEASED).touch()
                return
            _wait_gone(worker, jail)


def _wait_gone(worker: int, jail: int) -> None:
    """The jail goes with its worker; until it has, it must not be taken for a new one."""
    wait_until(lambda: not alive(worker) and not alive(jail), f"worker {worker} and its jail to die", 30)


def _jailed_check(marker: str) -> tuple[int, int, Path] | None:
    """The jail (its outer bubblewrap) of a running check that holds `marker`, the worker that
    started it, and the study folder the check sees."""
    found = _jailed_checks(marker)
    return found[0] if found else None


def checking_workers(marker: str) -> set[int]:
    """The study workers running a jailed check command that holds `marker`."""
    return {worker for _, worker, _ in _jailed_checks(marker)}


def _jailed_checks(marker: str) -> list[tuple[int, int, Path]]:
    """Each running check that holds `marker`: its jail (the outer bubblewrap), the worker that
    started it, and the study folder the check sees."""
    pids = with_command_line(marker)
    study = next((seen for pid in pids if (seen := _variable(pid, "GG_STUDY_DIR")) is not None), None)
    if study is None:
        return []
    found: list[tuple[int, int, Path]] = []
    for pid in pids:
        status = _status(pid)
        parent = int(status.get("PPid", "0"))
        outer = status.get("Name") == "bwrap" and _status(parent).get("Name") != "bwrap"
        if outer and parent not in (0, 1, os.getpid()):
            found.append((pid, parent, Path(study)))
    return found


def _status(pid: int) -> dict[str, str]:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


def _variable(pid: int, name: str) -> str | None:
    try:
        entries = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return None
    prefix = f"{name}=".encode()
    return next((entry[len(prefix) :].decode() for entry in entries if entry.startswith(prefix)), None)


def committed_cells(store: Path) -> int:
    """How many cells the store's studies have finished (0 before the ledger exists)."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store, timeout=10) as db:
            return int(db.execute("SELECT COUNT(*) FROM study_cells").fetchone()[0])
    except sqlite3.OperationalError:  # the tables are not made yet
        return 0
