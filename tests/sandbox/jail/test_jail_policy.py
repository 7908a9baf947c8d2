"""What a policy may ask of a jail: read-only places are absolute and never the workspace, and its
own variables never replace the fixed `PATH`, `HOME` and `LANG`."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.sandbox.jail import JailPolicy


def test_the_environment_is_the_fixed_three_then_the_policys_variables(tmp_path: Path) -> None:
    policy = JailPolicy(tmp_path, 1 << 30, variables=(("GG_STUDY_DIR", "/s"), ("TZ", "UTC")))
    assert policy.environment() == {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "GG_STUDY_DIR": "/s",
        "TZ": "UTC",
    }


@pytest.mark.parametrize("name", ["PATH", "HOME", "LANG"])
def test_a_variable_cannot_replace_a_fixed_one(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match=f"a jail sets {name} itself"):
        JailPolicy(tmp_path, 1 << 30, variables=((name, "/elsewhere"),))


@pytest.mark.parametrize("name", ["", "A=B"])
def test_a_variable_needs_a_name_without_an_equals_sign(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="cannot name an environment variable"):
        JailPolicy(tmp_path, 1 << 30, variables=((name, "x"),))


def test_a_read_only_place_is_an_absolute_path(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="an absolute path, not study"):
        JailPolicy(tmp_path, 1 << 30, read_only=(Path("study"),))


def test_the_workspace_cannot_also_be_read_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is the jail's workspace, which is writable"):
        JailPolicy(tmp_path, 1 << 30, read_only=(tmp_path,))
