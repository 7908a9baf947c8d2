"""The cache gg's Deno guests share (`gg.sandbox.deno.cache`): one folder of the user's, private
to them, filled by Deno with gg's own code and never with a program's."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from jsworld import JAVASCRIPT, Host, host, registry, run

from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.deno.cache import shared_cache

pytestmark = JAVASCRIPT

__all__ = ["host"]  # fixtures

MARKER = "gg-cache-probe-7f3a9c"


def test_every_guest_keeps_its_deno_caches_in_the_one_shared_folder_and_no_program_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host: Host
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = f'import {{ views }} from "gg";\nviews.openText("{MARKER}", "{MARKER}");\n'
    for _ in range(2):  # two arms, so two guest processes
        with JavaScriptArm(registry()) as arm:
            assert run(arm, host, source).ok
    folder = tmp_path / "cache" / "gg" / "deno"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    written = [path for path in folder.rglob("*") if path.is_file()]
    assert any(path.stat().st_size > 0 for path in written), "Deno cached gg's own code there"
    assert not [path for path in written if MARKER.encode() in path.read_bytes()]


def test_a_cache_folder_others_may_enter_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "gg" / "deno").mkdir(parents=True)
    (tmp_path / "gg" / "deno").chmod(0o755)
    assert shared_cache() is None
    (tmp_path / "gg" / "deno").chmod(0o700)
    assert shared_cache() == str(tmp_path / "gg" / "deno")


def test_a_file_in_the_way_leaves_each_guest_its_own_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "gg").write_text("not a folder")
    assert shared_cache() is None
