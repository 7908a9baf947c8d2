"""A jail's claim on the host folders it uses: its `/etc` copy and its pids group.

Rules:
- the gg that made a folder holds an exclusive lock on it (`flock` on the folder itself) for as
  long as its jail lives; the lock ends with the process holding it, however that process ends,
  and reads the same from every pid namespace that sees the folder;
- so a folder no one holds a lock on was left by a gg that is gone, and may be removed; a pid
  named in a folder's name proves nothing (another pid namespace may run that gg);
- a folder younger than `CLAIM_GRACE_SECS` is never judged abandoned: its maker may not have
  claimed it yet.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path

CLAIM_GRACE_SECS = 60.0


def claim(folder: Path) -> int:
    """Hold `folder` for this process; returns the descriptor to close when done with it."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    return descriptor


def is_abandoned(folder: Path, now: Callable[[], float] = time.time) -> bool:
    """Whether no process holds `folder` and it is old enough to have been claimed."""
    try:
        if now() - folder.stat().st_mtime < CLAIM_GRACE_SECS:
            return False
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return True
