"""A pids cgroup for each command a root-opened jail runs: the process bound uid 0 is exempt from.

The kernel does not apply RLIMIT_NPROC to uid 0, and a jail opened by root runs its commands as
uid 0 of their own user namespace, which is uid 0 on the host. So for root the bound is a cgroup:
- the hierarchy is the cgroup v1 `pids` mount, or a cgroup v2 mount whose root already hands the
  `pids` controller to its children (gg never changes a controller setting);
- each command gets its own child of that root, `gg-shell-<pid>-<random>`, whose `pids.max` is
  the policy's process bound; the jail's first process joins it before it runs anything, so
  every process and thread of the command is counted;
- the group is removed once its processes are gone.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

MOUNTS = Path("/proc/self/mountinfo")
REMOVE_TRIES = 50
REMOVE_PAUSE_SECS = 0.01


class PidsUnavailable(Exception):
    """No pids cgroup can be made on this host; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class PidsHierarchy:
    """Where pids cgroups are made."""

    root: Path

    def group(self, limit: int) -> PidsGroup:
        """A new group under the root, capped at `limit` tasks. Raises `PidsUnavailable`."""
        path = self.root / f"gg-shell-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            path.mkdir()
            (path / "pids.max").write_text(str(limit))
        except OSError as error:
            with contextlib.suppress(OSError):
                path.rmdir()
            raise PidsUnavailable(f"cannot make a pids cgroup under {self.root}: {error.strerror}") from None
        return PidsGroup(path)


@dataclass(frozen=True)
class PidsGroup:
    path: Path

    def admit(self, pid: int) -> None:
        """Move process `pid` into the group. Raises `PidsUnavailable`."""
        try:
            (self.path / "cgroup.procs").write_text(str(pid))
        except OSError as error:
            raise PidsUnavailable(f"cannot move a process into {self.path}: {error.strerror}") from None

    def remove(self) -> None:
        """Remove the group once its last task is released; left in place if that never happens."""
        for _ in range(REMOVE_TRIES):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(REMOVE_PAUSE_SECS)


def find_pids_hierarchy(mountinfo: str | None = None) -> PidsHierarchy:
    """The host's pids hierarchy. Raises `PidsUnavailable` when it has none gg may use."""
    text = MOUNTS.read_text() if mountinfo is None else mountinfo
    for line in text.splitlines():
        fields, _, tail = line.partition(" - ")
        mount_point = fields.split(" ")[4]
        kind, _, options = tail.split(" ")[:3]
        if kind == "cgroup" and "pids" in options.split(","):
            return PidsHierarchy(Path(mount_point))
        if kind == "cgroup2" and _hands_out_pids(Path(mount_point)):
            return PidsHierarchy(Path(mount_point))
    raise PidsUnavailable("the host has no cgroup hierarchy with the pids controller")


def _hands_out_pids(root: Path) -> bool:
    try:
        return "pids" in (root / "cgroup.subtree_control").read_text().split()
    except OSError:
        return False
