"""The jail a study's check commands run in (`gg.sandbox.jail`), and a host that cannot make one.

Rules:
- a check command runs in a jail over the finished workspace, which stays writable: a check may
  build, install and run tests there, and the workspace is removed after the check, so nothing
  the check writes is scored or kept (the files a run must produce were looked for before it ran);
- the study's folder, where check scripts live out of the agent's reach, is shown read-only at its
  own path and named by `GG_STUDY_DIR`; gg's package, its Python environment and the run store are
  hidden even under it; the rest of the host is absent, as for an agent's shell command;
- no network, and the bounds of a shell with its default settings (`CHECK_MAX_MEMORY_BYTES` of
  address space per process, `CHECK_MAX_FILE_BYTES` per file, the jail's process bound); every
  process the check started is gone when it returns;
- one jail serves every check command run in the same workspace path for the same study folder;
  it is opened at the first of them (a worker's cells share one path, `workplace.py`);
- a host that cannot jail a check raises `JailUnavailable`: a check never runs unjailed.
  `gg study run` asks at launch (`require_check_jail`) and refuses the study, naming the reason.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from gg.agents.shell import hidden_from_jails
from gg.config.catalogue import DEFAULT_SHELL_MAX_FILE_BYTES, DEFAULT_SHELL_MAX_MEMORY_BYTES
from gg.sandbox.jail import CommandEnd, Jail, JailPolicy, open_jail

__all__ = [
    "CHECK_MAX_FILE_BYTES",
    "CHECK_MAX_MEMORY_BYTES",
    "STUDY_DIR_ENV",
    "CheckJail",
    "check_policy",
    "require_check_jail",
]

STUDY_DIR_ENV = "GG_STUDY_DIR"
CHECK_MAX_MEMORY_BYTES = DEFAULT_SHELL_MAX_MEMORY_BYTES
CHECK_MAX_FILE_BYTES = DEFAULT_SHELL_MAX_FILE_BYTES


def check_policy(workspace: Path, study_dir: Path) -> JailPolicy:
    """What a check command in `workspace` of the study in `study_dir` is allowed."""
    study = study_dir.resolve()
    return JailPolicy(
        workspace.resolve(),
        CHECK_MAX_MEMORY_BYTES,
        network=False,
        hidden=hidden_from_jails(),
        max_file_bytes=CHECK_MAX_FILE_BYTES,
        read_only=(study,),
        variables=((STUDY_DIR_ENV, str(study)),),
    )


class CheckJail:
    """Where the check commands of one workspace path and one study folder run; the jail opens
    at the first command and serves every later one."""

    def __init__(self, workspace: Path, study_dir: Path) -> None:
        self.workspace = workspace
        self.study_dir = study_dir
        self.policy = check_policy(workspace, study_dir)
        self._jail: Jail | None = None

    def run(self, command: str, timeout_secs: float) -> CommandEnd:
        """Run `command` with `/bin/sh -c` in the workspace until it ends or `timeout_secs` pass.
        Raises `JailUnavailable` when this host cannot jail it, `JailFailure` when the jail
        cannot start it."""
        if self._jail is None:
            self._jail = open_jail(self.policy)
        return self._jail.run(command, timeout_secs)


def require_check_jail(study_dir: Path) -> None:
    """Raise `JailUnavailable` unless this host can jail the checks of the study in `study_dir`:
    a jail over a throwaway workspace is opened (a trial command runs in it), then dropped."""
    folder = Path(tempfile.mkdtemp(prefix="gg-check-trial-"))
    try:
        open_jail(check_policy(folder, study_dir))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
