"""What a jail allows a command: one writable place, host places it may read, bounded resources,
and the network or not.

Every bound is a resource limit of the jail's first process, set once the jail's own user
namespace exists and before the command runs, so it holds for the command and everything it
starts, and for nothing else:
- each process's address space: `max_memory_bytes` (RLIMIT_AS);
- processes and threads: `MAX_PROCESSES` (RLIMIT_NPROC, counted in the jail's user namespace);
  the kernel exempts uid 0 from it, so a jail opened by root holds the same bound with a pids
  cgroup instead (`pids.py`);
- each file a command writes: `max_file_bytes`, 1 GiB unless said otherwise (RLIMIT_FSIZE). The
  workspace is on the host's disk and a jail cannot size it, so a command fills it at most file
  by file, each write past the cap failing, until its timeout stops it;
- no core files.
The private `/tmp` and `/dev/shm` are memory, each a tmpfs of at most `max_memory_bytes`.
The environment is fixed (`environment`): `PATH`, `HOME` (the workspace) and `LANG`, then the
policy's own `variables`, which may not replace those three; nothing of the host's reaches a
command. Each read-only place is an absolute path, never the workspace itself.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass
from pathlib import Path

MAX_PROCESSES = 512
MAX_FILE_BYTES = 1 << 30  # 1 GiB
HOSTNAME = "gg"
USER_NAME = "gg"
SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
LANGUAGE = "C.UTF-8"
FIXED_VARIABLES = ("PATH", "HOME", "LANG")


@dataclass(frozen=True)
class JailPolicy:
    """One jail: its workspace (the one writable place, at the same path inside), the memory
    bound, whether the host's network is shared, host paths that must stay hidden even when they
    lie under a place the jail shows (gg's own package and environment, the run store), the size
    bound of each file a command writes, host places shown read-only at their own paths, and the
    variables set beside the fixed ones (name, value). Raises `ValueError` for a read-only place
    or a variable the rules above refuse."""

    workspace: Path
    max_memory_bytes: int
    network: bool = False
    hidden: tuple[Path, ...] = ()
    max_file_bytes: int = MAX_FILE_BYTES
    read_only: tuple[Path, ...] = ()
    variables: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for place in self.read_only:
            if not place.is_absolute():
                raise ValueError(f"a jail's read-only place is an absolute path, not {place}")
            if place == self.workspace:
                raise ValueError(f"{place} is the jail's workspace, which is writable")
        for name, _ in self.variables:
            if not name or "=" in name:
                raise ValueError(f"{name!r} cannot name an environment variable")
            if name in FIXED_VARIABLES:
                raise ValueError(f"a jail sets {name} itself; a policy cannot replace it")

    def environment(self) -> dict[str, str]:
        """The whole environment a command starts with."""
        fixed = {"PATH": SEARCH_PATH, "HOME": str(self.workspace), "LANG": LANGUAGE}
        return fixed | dict(self.variables)

    def limits(self) -> dict[int, int]:
        """The resource limits of every command (`resource.RLIMIT_*` to a value)."""
        return {
            resource.RLIMIT_AS: self.max_memory_bytes,
            resource.RLIMIT_NPROC: MAX_PROCESSES,
            resource.RLIMIT_FSIZE: self.max_file_bytes,
            resource.RLIMIT_CORE: 0,
        }
