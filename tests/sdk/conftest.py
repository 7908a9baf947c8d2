"""Fixtures for the SDK tests: the attack cases' canary fixture under each test's tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from .canary import Canary


@pytest.fixture
def case(tmp_path: Path) -> Canary:
    return Canary(tmp_path)
