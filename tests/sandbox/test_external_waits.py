"""The time ceiling excludes only waits on external work.

A call to an operation declared `waits_externally` (a shell command, a sub-agent) is off the
program's clock: the time the host spends on it is added back to the deadline. Every other host
call runs on the clock, so a loop of ordinary calls cannot outrun the ceiling.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import pytest

from gg.outcome import ErrorType
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.execution import Ceilings
from gg.sdk.registry import Always, Operation, Param, ParamType, Registry

WAIT_SECS = 0.4
CEILINGS = Ceilings(timeout_secs=1.0, max_memory_bytes=256 * 1024 * 1024)


def _unused(scope: Any, args: Mapping[str, Any]) -> None:
    return None


def _registry() -> Registry:
    seconds = (Param("seconds", ParamType.POSITIVE_NUMBER),)
    return Registry(
        [
            Operation(
                "shell", "wait", seconds, "void", "waits outside", Always(), _unused, waits_externally=True
            ),
            Operation("files", "wait", seconds, "void", "waits on the clock", Always(), _unused),
        ]
    )


def _host(operation: str, args: Mapping[str, Any]) -> None:
    time.sleep(float(args["seconds"]))


pytestmark = pytest.mark.arms("javascript", registry=_registry)


def _timed(arm: JavaScriptArm, source: str) -> tuple[ErrorType | None, float]:
    start = time.monotonic()
    execution = arm.run(source, _host, CEILINGS)
    return (execution.failure.type if execution.failure else None), time.monotonic() - start


def test_external_waits_are_off_the_programs_clock(arm: JavaScriptArm) -> None:
    kind, seconds = _timed(
        arm, f'import {{ shell }} from "gg";\nfor (let i = 0; i < 3; i++) shell.wait({WAIT_SECS});\n'
    )
    assert kind is None and seconds > 3 * WAIT_SECS


def test_ordinary_host_calls_run_on_the_clock(arm: JavaScriptArm) -> None:
    kind, seconds = _timed(
        arm, f'import {{ files }} from "gg";\nfor (let i = 0; i < 3; i++) files.wait({WAIT_SECS});\n'
    )
    assert kind is ErrorType.SANDBOX_TIMEOUT and seconds < CEILINGS.timeout_secs + 0.5


def test_guest_time_around_external_waits_still_counts(arm: JavaScriptArm) -> None:
    kind, seconds = _timed(
        arm, f'import {{ shell }} from "gg";\nshell.wait({WAIT_SECS});\nwhile (true) {{}}\n'
    )
    assert kind is ErrorType.SANDBOX_TIMEOUT
    assert CEILINGS.timeout_secs + WAIT_SECS - 0.1 < seconds < CEILINGS.timeout_secs + WAIT_SECS + 0.5
