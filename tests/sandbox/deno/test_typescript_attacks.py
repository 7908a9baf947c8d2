"""The TypeScript attack case (`tests/cases/attacks/005-ts-*.yaml`) against the real checker.

The program tries to make the checker read files outside the workspace, through triple-slash
references and type-only imports, and to have its diagnostics quote them. Nothing outside may be
read: no canary reaches any text, no diagnostic names a path the program did not write, the check
ends within the ceiling plus 5 s, and the next program is checked and run within 2 s.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import yaml
from jsworld import TRIVIAL, Host, registry

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorKind
from gg.sandbox.arms.typescript import TypeScriptArm
from support.wall_bounds import ANSWERED_WITHIN_SECS, STOPPED_WITHIN_SECS

pytestmark = pytest.mark.arms("typescript", registry=registry)

CASE = Path(__file__).resolve().parents[2] / "cases" / "attacks" / "005-ts-checker-reads-outside-files.yaml"
PASSWD_LINE = re.compile(r"^root:[^:]*:0:0:", re.M)
ABSOLUTE_PATH = re.compile(r"(?:file://)?(/[\w.\-]+)+")


def _fixture(root: Path, case: dict[str, object]) -> str:
    for path, text in {
        "ws/notes.txt": "hello from the workspace\n",
        "outside/secret.txt": "CANARY-OUTSIDE-3f9d1c\n",
        "home/.ssh/id_ed25519": "CANARY-SSH-8b27e4\n",
    }.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    for entry in case["setup"]["files"]:  # type: ignore[index]
        target = Path(entry["path"].replace("@@OUTSIDE@@", str(root / "outside")))
        target.write_text(entry["text"])
    program = str(case["program"])
    for token, value in [
        ("@@OUTSIDE@@", str(root / "outside")),
        ("@@HOME@@", str(root / "home")),
        ("@@ROOT@@", str(root)),
    ]:
        program = program.replace(token, value)
    return program


def test_005_the_checker_reads_nothing_outside_and_quotes_nothing_of_it(
    arm: TypeScriptArm, tmp_path: Path
) -> None:
    case = yaml.safe_load(CASE.read_text())
    program = _fixture(tmp_path, case)
    limits = case["ceilings"]
    ceilings = Ceilings(float(limits["timeoutSecs"]), int(limits["maxMemoryBytes"]))
    host = Host(tmp_path / "ws")
    start = time.monotonic()
    execution = arm.run(program, host, ceilings)
    assert time.monotonic() - start < ceilings.timeout_secs + STOPPED_WITHIN_SECS
    assert execution.failure is not None and execution.failure.type.kind is ErrorKind.TRANSPILE
    text = "\n".join([execution.failure.text, *execution.logs, *host.views.values()])
    assert "CANARY-" not in text and not PASSWD_LINE.search(text)
    assert all(line.startswith(("program.ts:", "    ")) for line in text.splitlines()), text
    for path in ABSOLUTE_PATH.findall(text):
        assert path in program, f"{path} is a path the program did not write"
    assert "gg-tscheck" not in text and str(Path.cwd()) not in text
    assert host.calls == []

    start = time.monotonic()
    trivial = arm.run(TRIVIAL, Host(tmp_path / "ws"), Ceilings(5.0, 256 * 1024 * 1024))
    assert trivial.ok and time.monotonic() - start < ANSWERED_WITHIN_SECS
