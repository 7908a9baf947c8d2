"""Fixtures for the workspace tests: a workspace beside outside files it must never reach."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.state.workspace import Workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    (ws / "notes.txt").write_text("hello from the workspace\n")
    (ws / "sub" / "inner.txt").write_text("inner file\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("CANARY-OUTSIDE\n")
    (tmp_path / "ws-sibling").mkdir()
    (tmp_path / "ws-sibling" / "secret.txt").write_text("CANARY-SIBLING\n")
    return ws


@pytest.fixture
def workspace(root: Path) -> Workspace:
    return Workspace(root)


@pytest.fixture
def linked(root: Path, tmp_path: Path) -> Path:
    links = {
        "etc": "/etc",
        "out": "../outside",
        "outabs": str(tmp_path / "outside"),
        "key": str(tmp_path / "outside" / "secret.txt"),
        "passwd": "/etc/passwd",
        "proc": "/proc/self",
        "zero": "/dev/zero",
        "sub/up": "../..",
        "loop": "loop",
        "ping": "pong",
        "pong": "ping",
        "dangling": "../outside/created-by-guest.txt",
        "danglingdir": "../outside/newdir",
        "inside": "sub/inner.txt",
        "insideabs": str(root / "sub"),
        "subdir": "sub",
        "sub/back": "../notes.txt",
        "sub/roundtrip": "../../ws/notes.txt",
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    return root
