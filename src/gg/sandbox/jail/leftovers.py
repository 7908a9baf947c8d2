"""What a gg that died left of its jails, removed by the next jail opened on the host.

Rules:
- an `/etc` copy (`gg-jail-etc-*` in the temporary folder) or a pids group (`gg-shell-*`) that no
  live jail claims (`gg.sandbox.jail.claims`) is removed;
- a jail's pid 1 whose bubblewrap is gone is killed, with the rest of its pid namespace: a gg
  killed while a jail is being set up takes that bubblewrap with it and leaves pid 1 waiting
  forever, before it runs anything. Only this user's processes whose command line is a gg
  jail's are looked at.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
from pathlib import Path

from gg.sandbox.jail.arguments import WAIT_FOR_GG
from gg.sandbox.jail.claims import is_abandoned
from gg.sandbox.jail.layout import ETC_PREFIX
from gg.sandbox.jail.pids import PidsHierarchy


def sweep(pids: PidsHierarchy | None, temporary: Path | None = None) -> None:
    """Remove what dead gg processes left: `/etc` copies, pids groups and orphaned jails."""
    for place in (temporary or Path(tempfile.gettempdir())).glob(f"{ETC_PREFIX}*"):
        if is_abandoned(place):
            shutil.rmtree(place, ignore_errors=True)
    if pids is not None:
        for group in pids.root.glob("gg-shell-*"):
            if is_abandoned(group):
                with contextlib.suppress(OSError):
                    group.rmdir()
    for pid in orphaned_jails():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def orphaned_jails() -> list[int]:
    """This user's jail pid 1s whose bubblewrap is gone."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _is_orphaned_jail(entry):
            found.append(int(entry.name))
    return found


def _is_orphaned_jail(process: Path) -> bool:
    try:
        status = dict(line.split(":\t", 1) for line in (process / "status").read_text().splitlines())
        if status.get("Name") != "bwrap" or int(status["Uid"].split()[0]) != os.getuid():
            return False
        if status["State"].startswith(("Z", "X")):  # gone already, waiting to be reaped
            return False
        if (
            status["NSpid"].split()[-1] != "1"
            or WAIT_FOR_GG.encode() not in (process / "cmdline").read_bytes()
        ):
            return False
        parent = Path(f"/proc/{int(status['PPid'])}/comm")
        return not parent.exists() or parent.read_text().strip() != "bwrap"
    except (OSError, KeyError, ValueError):
        return False
