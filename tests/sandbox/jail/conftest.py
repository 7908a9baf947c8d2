"""The jail tests' world: a workspace beside a secret outside it, and a jail over that workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from jailworld import jail_over, workspace_in

from gg.sandbox.jail import Jail


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return workspace_in(tmp_path)


@pytest.fixture
def jail(workspace: Path) -> Jail:
    return jail_over(workspace)
