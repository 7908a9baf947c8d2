from pathlib import Path

import pytest

from .documents import prepare


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A config folder holding the example's workspace and journal."""
    return prepare(tmp_path)
