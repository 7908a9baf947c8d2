"""The time ceiling excludes only waits on external work, on both engines.

A call to an operation declared `waits_externally` (a shell command, a sub-agent) is off the
program's clock: the time the host spends on it is added back to the deadline. Every other host
call runs on the clock, so a loop of ordinary calls cannot outrun the ceiling.

The guests' deadlines read a clock the test moves: a host call "waits" by moving it forward,
so the rules are checked on what the deadline saw, never on how long the machine took. The clock
stands still until the program's first call, so however long a loaded machine takes to start a
program, its ceiling counts from there.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.arms.python import PythonArm
from gg.sandbox.execution import Arm
from gg.sdk.registry import Always, Operation, Param, ParamType, Registry
from support.manual_clock import HeldClock
from support.wall_bounds import STOPPED_WITHIN_SECS

WAIT_SECS = 100.0  # each wait moves the guests' clock this far
# Far below one wait, far above what a program does between its calls on a loaded machine.
WIDE = Ceilings(timeout_secs=30.0, max_memory_bytes=256 * 1024 * 1024)
# What the spinning program is stopped at, on its own time after its wait.
SHORT = Ceilings(timeout_secs=1.0, max_memory_bytes=256 * 1024 * 1024)


class MovedClock:
    """A clock held until the program's first call and running from then, plus the time the
    test's waits added."""

    def __init__(self) -> None:
        self.held = HeldClock()
        self.moved = 0.0

    def __call__(self) -> float:
        return self.held() + self.moved


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


SOURCES = {
    "javascript": {
        "outside": 'import {{ shell }} from "gg";\nfor (let i = 0; i < 3; i++) shell.wait({secs});\n',
        "on-clock": 'import {{ files }} from "gg";\nfor (let i = 0; i < 3; i++) files.wait({secs});\n',
        "then-spin": 'import {{ shell }} from "gg";\nshell.wait({secs});\nwhile (true) {{}}\n',
    },
    "python": {
        "outside": "from gg import shell\nfor i in range(3):\n    shell.wait({secs})\n",
        "on-clock": "from gg import files\nfor i in range(3):\n    files.wait({secs})\n",
        "then-spin": "from gg import shell\nshell.wait({secs})\nwhile True:\n    pass\n",
    },
}


class World:
    def __init__(self, arm: Arm, clock: MovedClock, language: str) -> None:
        self.arm = arm
        self.clock = clock
        self.language = language
        self.calls: list[str] = []

    def host(self, operation: str, args: Mapping[str, Any]) -> None:
        self.clock.held.release()
        self.calls.append(operation)
        self.clock.moved += float(args["seconds"])

    def run(self, program: str, ceilings: Ceilings = WIDE) -> tuple[ErrorType | None, float]:
        self.calls.clear()
        self.clock.held.hold()
        source = SOURCES[self.language][program].format(secs=WAIT_SECS)
        start = time.monotonic()
        execution = self.arm.run(source, self.host, ceilings)
        kind = execution.failure.type if execution.failure else None
        return kind, time.monotonic() - start


@pytest.fixture(scope="module", params=["javascript", "python"])
def world(request: pytest.FixtureRequest) -> Iterator[World]:
    clock = MovedClock()
    language = str(request.param)
    made = (
        JavaScriptArm(_registry(), clock=clock)
        if language == "javascript"
        else PythonArm(_registry(), clock=clock)
    )
    with made:
        yield World(made, clock, language)


def test_external_waits_are_off_the_programs_clock(world: World) -> None:
    kind, _ = world.run("outside")
    assert kind is None and world.calls == ["shell.wait"] * 3


def test_an_ordinary_call_that_outlasts_the_ceiling_ends_the_program_when_it_returns(world: World) -> None:
    kind, _ = world.run("on-clock")
    assert kind is ErrorType.SANDBOX_TIMEOUT and world.calls == ["files.wait"]


def test_guest_time_around_external_waits_still_counts(world: World) -> None:
    kind, seconds = world.run("then-spin", SHORT)
    assert kind is ErrorType.SANDBOX_TIMEOUT and world.calls == ["shell.wait"]
    assert SHORT.timeout_secs <= seconds < STOPPED_WITHIN_SECS
