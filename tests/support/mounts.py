"""Real file systems for the tests of the run's record: a small tmpfs (a disk that fills, with
ENOSPC), a tmpfs remounted read-only, a tmpfs grown again.

Mounting needs root (CI runs as root on Debian); on a machine that cannot mount, a test asking
for one is skipped, saying why. Every mount is undone when its `with` block ends.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *arguments], capture_output=True, text=True, check=False)


@contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A fresh tmpfs of `size` (`2m`) mounted at `path` (made when missing), unmounted after."""
    path.mkdir(parents=True, exist_ok=True)
    mounted = _mount("-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(path))
    if mounted.returncode != 0:
        pytest.skip(f"this machine cannot mount a tmpfs (root is needed): {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "--lazy", str(path)], capture_output=True, check=False)


def remount(path: Path, options: str) -> None:
    """Remount the tmpfs at `path` with `options` (`ro`, `rw`, `size=64m`)."""
    remounted = _mount("-o", f"remount,{options}", str(path))
    assert remounted.returncode == 0, remounted.stderr


def fill(folder: Path) -> None:
    """Fill the file system holding `folder` to its last byte (with a file `filler` in it)."""
    descriptor = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while os.write(descriptor, b"\0" * size):
                    pass
            except OSError:
                pass
    finally:
        os.close(descriptor)
