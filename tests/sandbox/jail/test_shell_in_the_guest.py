"""`shell.shell` from a real program on every arm, through the real membrane and a real jail: the
call and its record as each arm spells them, its failures as each arm raises them, and the time a
command takes kept off the program's clock (Deno and Monty alike)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gg.config.catalogue import Role
from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.sandbox.execution import Arm, Execution
from gg.sandbox.jail import JailPolicy, open_jail
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.sdk.shell import ShellAccess
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.guest_world import QuietLog
from support.wall_bounds import STOPPED_WITHIN_SECS

CEILINGS = Ceilings(timeout_secs=1.0, max_memory_bytes=256 * 1024 * 1024)
JS = {
    "result": (
        'import { shell, views } from "gg";\n'
        'const r = shell.shell("echo out; echo err >&2; exit 3");\n'
        'views.openText("r", `${r.exitCode}|${r.output}|${r.truncated}|${r.droppedBytes}`);\n'
    ),
    "timeout": (
        'import { shell, views, ApiError } from "gg";\n'
        'try { shell.shell("echo so far; sleep 30", { timeoutSecs: 0.3 }); }\n'
        "catch (e) {\n"
        '  if (e instanceof ApiError) views.openText("r", `${e.operation}|${e.code}|${e.message}`);\n'
        "}\n"
    ),
    "slow": 'import { shell } from "gg";\nshell.shell("sleep 0.8");\nshell.shell("sleep 0.8");\n',
    "spin": 'import { shell } from "gg";\nshell.shell("sleep 0.8");\nwhile (true) {}\n',
}
PY = {
    "result": (
        "from gg import shell, views\n"
        'r = shell.shell("echo out; echo err >&2; exit 3")\n'
        'views.open_text("r", f"{r.exit_code}|{r.output}|{r.truncated}|{r.dropped_bytes}")\n'
    ),
    "timeout": (
        "import gg\nfrom gg import shell, views\n"
        "try:\n"
        '    shell.shell("echo so far; sleep 30", timeout_secs=0.3)\n'
        "except gg.ApiError as e:\n"
        "    d = gg.core.details(e)\n"
        '    views.open_text("r", f"{d.operation}|{d.code}|{d.message}")\n'
    ),
    "slow": 'from gg import shell\nshell.shell("sleep 0.8")\nshell.shell("sleep 0.8")\n',
    "spin": 'from gg import shell\nshell.shell("sleep 0.8")\nwhile True:\n    pass\n',
}
ARMS = ["javascript", "typescript", "python", "python-typed"]


pytestmark = pytest.mark.arms(*ARMS)


def _run(arm: Arm, root: Path, program: str) -> tuple[Execution, dict[str, str], float]:
    (root / "ws").mkdir(exist_ok=True)
    access = ShellAccess(open_jail(JailPolicy((root / "ws").resolve(), 1 << 30)), 120.0)
    views = ViewSet()
    spell = default_registry().spelling(arm.language)
    scope = ProgramScope(
        "root",
        Role.STANDARD,
        frozenset({"shell"}),
        Workspace(root / "ws"),
        views,
        1,
        shell=access,
        spell=spell,
    )
    source = (PY if arm.language.startswith("python") else JS)[program]
    started = time.monotonic()
    execution = arm.run(source, Membrane(default_registry(), scope, QuietLog(), arm.language), CEILINGS)
    seconds = time.monotonic() - started
    shown = {view.selector: view.render().split("\n----\n", 1)[-1] for view in views.close_turn()}
    return execution, shown, seconds


def test_a_program_reads_the_exit_code_and_merged_output(arm: Arm, tmp_path: Path) -> None:
    execution, views, _ = _run(arm, tmp_path, "result")
    assert execution.failure is None, execution.failure
    false = "False" if arm.language.startswith("python") else "false"
    assert views["r"] == f"3|out\nerr\n|{false}|0"


def test_a_timeout_reaches_the_program_as_limit_exceeded_with_the_output_so_far(
    arm: Arm, tmp_path: Path
) -> None:
    execution, views, _ = _run(arm, tmp_path, "timeout")
    assert execution.failure is None, execution.failure
    operation, code, message = views["r"].split("|", 2)
    assert (operation, code) == ("shell", "limit-exceeded")
    assert "0.3 s timeout" in message and message.endswith("so far\n")


def test_time_in_a_command_is_off_the_programs_clock(arm: Arm, tmp_path: Path) -> None:
    execution, _, seconds = _run(arm, tmp_path, "slow")
    assert execution.failure is None, execution.failure
    assert seconds > 1.6 > CEILINGS.timeout_secs


def test_guest_time_around_a_command_still_counts(arm: Arm, tmp_path: Path) -> None:
    execution, _, seconds = _run(arm, tmp_path, "spin")
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
    assert CEILINGS.timeout_secs + 0.8 - 0.1 < seconds < CEILINGS.timeout_secs + 0.8 + STOPPED_WITHIN_SECS
