"""The jail a run's command hooks run in (`gg.sandbox.jail`): a hook sees its event and nothing of
the run.

Rules:
- one jail per run, over a private folder of its own (never the agent's workspace), opened at
  launch when any command hook is declared; a host that cannot jail refuses the launch
  (`JailUnavailable`): a hook never runs unjailed;
- each declared executable is shown read-only at its own path; gg's package, its environment and
  the run store stay hidden; no network; the bounds of a shell with its default settings;
- before each hook the folder is emptied and holds only `event.json`, the event's payload, which
  is the hook's stdin; the environment is the jail's fixed one (nothing of the host's);
- hooks run one at a time (the folder is shared), each until it ends or its timeout passes.
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from gg.config.catalogue import DEFAULT_SHELL_MAX_FILE_BYTES, DEFAULT_SHELL_MAX_MEMORY_BYTES
from gg.sandbox.jail import CommandEnd, JailPolicy, open_jail

__all__ = ["PAYLOAD_FILE", "HookJail"]

PAYLOAD_FILE = "event.json"


class HookJail:
    """Runs hook executables on a payload, in a jail over a folder of its own."""

    def __init__(self, commands: Sequence[Path], hidden: Sequence[Path]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="gg-hooks-")).resolve()
        policy = JailPolicy(
            self.folder,
            DEFAULT_SHELL_MAX_MEMORY_BYTES,
            network=False,
            hidden=tuple(hidden),
            max_file_bytes=DEFAULT_SHELL_MAX_FILE_BYTES,
            read_only=tuple(dict.fromkeys(command.resolve() for command in commands)),
        )
        try:
            self._jail = open_jail(policy)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        self._lock = threading.Lock()

    def run(self, command: Path, payload: str, timeout_secs: float) -> CommandEnd:
        """Run `command` with `payload` on its stdin. Raises `JailFailure`."""
        with self._lock:
            self._empty()
            (self.folder / PAYLOAD_FILE).write_text(payload, encoding="utf-8")
            line = f"exec {shlex.quote(str(command.resolve()))} < {PAYLOAD_FILE}"
            return self._jail.run(line, timeout_secs)

    def _empty(self) -> None:
        for entry in self.folder.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
