"""The folder Deno keeps its caches in for gg's guests (`DENO_DIR`): the compiled code and module
analysis of gg's own guest code (`guest/host.js`, the Worker's boot module) and of Deno's built-in
modules, shared by every guest process of the user, so a guest starts without compiling them again.

Rules kept here:
- the folder is `gg/deno` under `$XDG_CACHE_HOME` (`~/.cache` when unset), private to the user
  (0700), and used only while it is the user's own and no one else may enter it;
- no guest may read or write it (a guest's permissions name its socket and its runs' pipes
  only); Deno alone fills it, with gg's code and its own built-in modules: a program and its
  code modules are loaded through gg's hooks, which Deno caches nothing of;
- where the folder cannot be made or is not private, each guest keeps its caches in its own
  private folder (None here).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def shared_cache() -> str | None:
    """The folder gg's guests share as `DENO_DIR`, made if need be; None when it cannot be used."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    folder = os.path.join(base, "gg", "deno")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        found = os.stat(folder, follow_symlinks=False)
    except (OSError, RuntimeError):  # no home, a read-only one, a file in the way
        return None
    private = stat.S_ISDIR(found.st_mode) and found.st_mode & 0o077 == 0
    return folder if private and found.st_uid == os.getuid() else None
