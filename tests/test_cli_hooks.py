"""`gg run` and `gg check` over hooks (issue 26): a hook that cannot judge exits 1 as `hook_error`,
and a broken declaration is refused (exit 2) naming every defect."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
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
