"""What a policy grants beside the workspace, on a real bubblewrap: host places shown read-only at
their own paths (nothing else of the host comes with them) and variables set beside the fixed
ones (no host variable comes with them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from jailworld import exited, jail_over, workspace_in

from gg.sandbox.jail import Jail


@pytest.fixture
def study(tmp_path: Path) -> Path:
    """`root/study` holding `check.sh` and `data/expected.txt`, beside the workspace."""
    workspace_in(tmp_path)
    (tmp_path / "study" / "data").mkdir(parents=True)
    (tmp_path / "study" / "check.sh").write_text("echo checked\n")
    (tmp_path / "study" / "data" / "expected.txt").write_text("CANARY-STUDY-77e0b2\n")
    return (tmp_path / "study").resolve()


def run(jail: Jail, command: str) -> tuple[int, str]:
    end = exited(jail.run(command, 20.0))
    return end.exit_code, end.output.text


def test_a_read_only_place_is_shown_at_its_own_path_and_cannot_be_changed(
    tmp_path: Path, study: Path
) -> None:
    jail = jail_over((tmp_path / "ws").resolve(), read_only=(study,))
    assert run(jail, f"sh {study}/check.sh; cat {study}/data/expected.txt") == (
        0,
        "checked\nCANARY-STUDY-77e0b2\n",
    )
    for change in ("touch {s}/new", "echo x >> {s}/check.sh", "rm {s}/data/expected.txt", "mkdir {s}/d"):
        code, output = run(jail, change.format(s=study))
        assert code != 0 and "Read-only file system" in output, (change, output)
    assert sorted(p.name for p in study.iterdir()) == ["check.sh", "data"]
    assert (study / "check.sh").read_text() == "echo checked\n"


def test_a_read_only_place_brings_nothing_else_of_the_host(tmp_path: Path, study: Path) -> None:
    jail = jail_over((tmp_path / "ws").resolve(), read_only=(study,))
    for place in (tmp_path / "outside", tmp_path / "outside" / "secret.txt", "/home", "/root", Path.cwd()):
        assert run(jail, f"test -e {place}")[0] == 1, place
    assert run(jail, f"ls -A {tmp_path}") == (0, "study\nws\n")


def test_a_workspace_inside_a_read_only_place_stays_writable(tmp_path: Path, study: Path) -> None:
    workspace = study / "cells" / "ws"
    workspace.mkdir(parents=True)
    jail = jail_over(workspace, read_only=(study,))
    assert run(jail, f"echo made > made.txt && cat {study}/data/expected.txt") == (0, "CANARY-STUDY-77e0b2\n")
    assert (workspace / "made.txt").read_text() == "made\n"
    assert run(jail, f"touch {study}/cells/beside")[0] != 0
    assert not (study / "cells" / "beside").exists()


def test_a_hidden_folder_under_a_read_only_place_is_covered(tmp_path: Path, study: Path) -> None:
    (study / ".gg").mkdir()
    (study / ".gg" / "runs.db").write_text("CANARY-STORE-0c41d3\n")
    jail = jail_over((tmp_path / "ws").resolve(), hidden=(study / ".gg",), read_only=(study,))
    code, output = run(jail, f"ls -A {study}/.gg; cat {study}/.gg/runs.db")
    assert code != 0 and "CANARY" not in output
    assert run(jail, f"ls -A {study}/.gg") == (0, "")


def test_a_policys_variables_are_set_and_no_host_variable_comes_with_them(
    tmp_path: Path, study: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GG_CANARY_ENV", "CANARY-ENV-90d1ee")
    monkeypatch.setenv("GG_STUDY_DIR", "/host/value")
    variables = (("GG_STUDY_DIR", str(study)),)
    jail = jail_over((tmp_path / "ws").resolve(), read_only=(study,), variables=variables)
    code, output = run(jail, "env; cat /proc/1/environ | tr '\\0' '\\n'")
    assert code == 0 and "CANARY" not in output and "/host/value" not in output
    assert f"GG_STUDY_DIR={study}" in output.splitlines()
    names = {line.split("=", 1)[0] for line in output.splitlines() if "=" in line}
    assert names <= {"PATH", "HOME", "LANG", "PWD", "GG_STUDY_DIR"}, names
