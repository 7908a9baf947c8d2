"""The sentinel removes exactly the folder it was told of, whatever bytes its path holds: a path with
a newline or a space never ends or splits the line that names it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gg.sandbox.sentinel import SCRIPT, _named  # pyright: ignore[reportPrivateUsage]


def test_a_folder_whose_path_holds_a_newline_is_removed_and_nothing_beside_it(tmp_path: Path) -> None:
    odd = tmp_path / "a\nb c"
    odd.mkdir()
    prefix = tmp_path / "a"  # what a line split at the newline would have named
    prefix.mkdir()
    sentinel = subprocess.Popen([sys.executable, "-c", SCRIPT], stdin=subprocess.PIPE)
    assert sentinel.stdin is not None
    sentinel.stdin.write(_named(2**22 + 1, bytes(odd)))  # a group id no process has here
    sentinel.stdin.close()
    assert sentinel.wait(timeout=30) == 0
    assert not odd.exists()
    assert prefix.exists()
