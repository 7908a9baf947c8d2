"""When commands cannot be jailed: a host where bwrap cannot make namespaces refuses the jail,
naming why (never an unjailed shell), and a command the jail cannot start is a `JailFailure`."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from jailworld import jail_over, without_namespaces, workspace_in

from gg.sandbox.jail import JailFailure

PROBE = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from gg.sandbox.jail import JailPolicy, JailUnavailable, open_jail
    try:
        open_jail(JailPolicy(Path(sys.argv[1]), 1 << 30))
    except JailUnavailable as refusal:
        print("refused:", refusal.reason)
    else:
        print("opened")
    """
)


def test_a_host_where_bwrap_cannot_make_namespaces_refuses_the_jail_naming_why(tmp_path: Path) -> None:
    workspace = workspace_in(tmp_path)
    ran = subprocess.run(
        without_namespaces([sys.executable, "-c", PROBE, str(workspace)]),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("refused: bwrap cannot create the jail here: ")
    assert "namespace" in ran.stdout


def test_a_command_whose_workspace_vanished_cannot_start(tmp_path: Path) -> None:
    workspace = workspace_in(tmp_path)
    jail = jail_over(workspace)
    shutil.rmtree(workspace)
    with pytest.raises(JailFailure, match=str(workspace)):
        jail.run("true", 10.0)
