"""A host-function module that calls `sys.exit` as it imports is refused like any module that
cannot be imported: `gg run` and `gg docs` exit 2 naming the entry and the call
(`sys.exit(3)`), never exit with the module's own code, silently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GG = Path(sys.executable).parent / "gg"
SAID = "cannot be imported (SystemExit: the module called sys.exit(3) as it loaded)"


@pytest.fixture
def exiting(tmp_path: Path) -> Path:
    """A folder holding `badfam.py`, which exits with 3 as it loads, and a capability set naming
    it as a host family."""
    (tmp_path / "workspace").mkdir()
    (tmp_path / "badfam.py").write_text("import sys\nsys.exit(3)\n")
    code = {"id": "responses-as-code", "params": {"language": "javascript"}}
    families = {"id": "host-functions", "params": {"families": ["badfam:fam"]}}
    model = {"provider": "replay", "journal": "j.jsonl"}
    root = {"slug": "root", "task": "t", "model": model, "capabilities": [code, families]}
    (tmp_path / "gg.json").write_text(json.dumps({"name": "hf", "workspace": "workspace", "agents": [root]}))
    reply = {"calls": [{"name": "submit_program", "arguments": {"program": "1"}}]}
    (tmp_path / "j.jsonl").write_text(json.dumps(reply) + "\n")
    return tmp_path


def _gg(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(folder), *sys.path])
    return subprocess.run(
        [str(GG), *arguments],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
    )


def test_gg_run_refuses_a_host_module_that_exits_as_it_imports(exiting: Path) -> None:
    ran = _gg(exiting, "run", ".")
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert f"families[0]: {SAID}" in ran.stdout + ran.stderr


def test_gg_docs_refuses_a_host_module_that_exits_as_it_imports(exiting: Path) -> None:
    shown = _gg(exiting, "docs", "badfam:fam")
    assert shown.returncode == 2, shown.stdout + shown.stderr
    assert SAID in shown.stdout + shown.stderr
