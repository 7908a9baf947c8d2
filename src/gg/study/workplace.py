"""Where a worker's cells work, one after another: one workspace path, and the jail checks run in.

Rules:
- every cell a worker runs works at the same path, `workspace` in the worker's own private folder:
  a fresh copy of the cell's task template made when the cell starts and removed after its check,
  so nothing of one cell's workspace reaches another's;
- a workspace that cannot be removed is left where it is, and the next cell works in a new folder;
- the check jail over that path (`check_jail.py`) is kept from cell to cell while the study's
  folder stays the same, so a worker opens one jail for a study, not one per cell; a new folder
  or another study's folder gets a new one;
- the folder goes when the workplace is closed, or when the worker exits; a workplace given a
  `root` makes its folders inside it, so whoever made the root (the local pool's driver) removes
  everything a worker left by removing it, even after killing the worker mid-cell.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from pathlib import Path

from gg.study.check_jail import CheckJail

__all__ = ["FOLDER_PREFIX", "WORKSPACE_DIR", "Workplace"]

FOLDER_PREFIX = "gg-cell-"
WORKSPACE_DIR = "workspace"


class Workplace:
    """A worker's workspace path and the check jail over it."""

    def __init__(self, root: Path | None = None) -> None:
        self._root = root
        self._folder: Path | None = None
        self._jail: CheckJail | None = None

    def fresh_workspace(self, template: Path) -> Path:
        """The next cell's workspace: a copy of `template`."""
        workspace = self._workspace()
        shutil.copytree(template, workspace, symlinks=True)
        return workspace

    def check_jail(self, study_dir: Path) -> CheckJail:
        """The jail the checks of the study in `study_dir` run in, over the workspace."""
        workspace = self._workspace()
        jail = self._jail
        if jail is None or jail.workspace != workspace or jail.study_dir != study_dir:
            jail = self._jail = CheckJail(workspace, study_dir)
        return jail

    def clear(self) -> None:
        """Remove the cell's workspace; when it cannot be, the next cell works in a new folder."""
        if self._folder is None:
            return
        workspace = self._folder / WORKSPACE_DIR
        shutil.rmtree(workspace, ignore_errors=True)
        if workspace.exists() or workspace.is_symlink():
            self._folder, self._jail = None, None

    def close(self) -> None:
        """Remove the folder, and with it anything a cell left."""
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
        self._folder, self._jail = None, None

    def _workspace(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=self._root))
            weakref.finalize(self, shutil.rmtree, self._folder, True)
        return self._folder / WORKSPACE_DIR
