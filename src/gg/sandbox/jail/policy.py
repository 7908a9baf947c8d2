"""What a jail allows a command: one writable place, bounded resources, and the network or not.

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
The environment is fixed (`environment`): nothing of the host's reaches a command.
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


@dataclass(frozen=True)
class JailPolicy:
    """One agent's jail: its workspace (the one writable place, at the same path inside), the
    memory bound, whether the host's network is shared, host paths that must stay hidden even
    when they lie under a place the jail shows (gg's own package and environment, the run store),
    and the size bound of each file a command writes."""

    workspace: Path
    max_memory_bytes: int
    network: bool = False
    hidden: tuple[Path, ...] = ()
    max_file_bytes: int = MAX_FILE_BYTES

    def environment(self) -> dict[str, str]:
        """The whole environment a command starts with."""
        return {"PATH": SEARCH_PATH, "HOME": str(self.workspace), "LANG": LANGUAGE}

    def limits(self) -> dict[int, int]:
        """The resource limits of every command (`resource.RLIMIT_*` to a value)."""
        return {
            resource.RLIMIT_AS: self.max_memory_bytes,
            resource.RLIMIT_NPROC: MAX_PROCESSES,
            resource.RLIMIT_FSIZE: self.max_file_bytes,
            resource.RLIMIT_CORE: 0,
        }
