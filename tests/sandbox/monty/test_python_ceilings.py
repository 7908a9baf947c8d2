"""The Python arm's ceilings: time on the wall clock (calls that wait on outside work excepted:
`test_external_waits`), memory, recursion, and an engine or worker that dies; after each, the
next program runs."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pyworld import PYTHON, TRIVIAL, Host, host, run

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.sandbox.arms.python import PythonArm
from support.wall_bounds import ANSWERED_WITHIN_SECS, STOPPED_WITHIN_SECS

pytestmark = PYTHON

SHORT = Ceilings(timeout_secs=0.5, max_memory_bytes=64 * 1024 * 1024)

__all__ = ["host"]  # fixtures


def _timed(arm: PythonArm, host: Host, source: str, ceilings: Ceilings = SHORT) -> tuple[Any, float]:
    start = time.monotonic()
    execution = run(arm, host, source, ceilings)
    return execution, time.monotonic() - start


def _assert_alive(arm: PythonArm, host: Host) -> None:
    start = time.monotonic()
    assert run(arm, host, TRIVIAL).ok
    assert time.monotonic() - start < ANSWERED_WITHIN_SECS


def test_a_busy_loop_stops_at_the_ceiling_and_the_next_program_runs(arm: PythonArm, host: Host) -> None:
    """How soon after its ceiling a program is stopped is `bench/ceilings.py`'s to measure."""
    execution, _ = _timed(arm, host, 'import gg\ngg.views.open_text("started", "x")\nwhile True:\n    pass\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
    assert execution.failure.text == "The program was stopped at its 0.5 s timeout."
    assert 0.5 <= execution.duration_ms / 1000 < STOPPED_WITHIN_SECS and host.views == {"started": "x"}
    _assert_alive(arm, host)


def test_a_loop_of_caught_host_errors_stops_on_the_wall_clock(arm: PythonArm, host: Host) -> None:
    source = (
        "from gg import files\nwhile True:\n    try:\n"
        '        files.read_file("/etc/passwd")\n    except Exception:\n        pass\n'
    )
    execution, _ = _timed(arm, host, source)
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
    assert 0.5 <= execution.duration_ms / 1000 < STOPPED_WITHIN_SECS and len(host.calls) > 10
    _assert_alive(arm, host)


def test_a_sleep_waits_and_a_long_one_meets_the_ceiling(arm: PythonArm, host: Host) -> None:
    execution, seconds = _timed(arm, host, "import time\ntime.sleep(0.2)\nprint('woke')\n")
    assert execution.ok and execution.logs == ("woke",) and seconds >= 0.2
    execution, _ = _timed(arm, host, "import time\ntime.sleep(3600)\n")
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
    assert execution.duration_ms / 1000 < STOPPED_WITHIN_SECS
    _assert_alive(arm, host)


def test_memory_past_the_ceiling_is_out_of_memory_at_the_line_the_engine_names(
    arm: PythonArm, host: Host
) -> None:
    """The time ceiling is far off, so only the memory ceiling can stop the hoard, however loaded the
    machine is."""
    roomy = Ceilings(timeout_secs=60, max_memory_bytes=64 * 1024 * 1024)
    source = 'hoard = []\nwhile True:\n    hoard.append("x" * 1_000_000 + str(len(hoard)))\n'
    execution, _ = _timed(arm, host, source, roomy)
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_OUT_OF_MEMORY
    assert execution.failure.text == (
        "The program was stopped: it used up its memory limit of 67108864 bytes, "
        'at line 3 of program.py: `hoard.append("x" * 1_000_000 + str(len(hoard)))`.'
    )
    _assert_alive(arm, host)


def test_a_giant_allocation_ends_the_program_at_once_even_inside_a_try(arm: PythonArm, host: Host) -> None:
    """The engine's memory limit cannot be caught: the program is stopped, not handed an error."""
    source = (
        'import gg\ntry:\n    x = [0] * 10**10\nexcept MemoryError:\n    gg.views.open_text("m", "caught")\n'
    )
    execution, _ = _timed(arm, host, source)
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_OUT_OF_MEMORY
    assert host.views == {} and "at line 3 of program.py: `x = [0] * 10**10`" in execution.failure.text


def test_recursion_is_a_catchable_recursion_error(arm: PythonArm, host: Host) -> None:
    source = (
        "import gg\ndef f(n):\n    return f(n + 1)\ntry:\n    f(0)\n"
        'except RecursionError:\n    gg.views.open_text("r", "caught")\n'
    )
    assert run(arm, host, source).ok and host.views == {"r": "caught"}


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.extend(int(child) for child in (task / "children").read_text().split())
    return found


def test_an_engine_that_crashes_is_a_trap_and_the_next_program_runs(arm: PythonArm, host: Host) -> None:
    run(arm, host, TRIVIAL)
    worker = arm.pool.pid
    assert worker is not None

    def crash(operation: str, args: Mapping[str, Any]) -> None:
        for child in _children(worker):
            os.kill(child, signal.SIGABRT)
        time.sleep(0.1)

    host.hook = crash
    execution = run(arm, host, 'import gg\ngg.views.open_text("a", "b")\nx = 1\n')
    host.hook = None
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TRAP
    _assert_alive(arm, host)


def test_a_worker_that_dies_is_a_trap_and_is_replaced(arm: PythonArm, host: Host) -> None:
    run(arm, host, TRIVIAL)
    worker = arm.pool.pid
    assert worker is not None
    host.hook = lambda operation, args: os.kill(worker, signal.SIGKILL)
    execution = run(arm, host, 'import gg\ngg.views.open_text("a", "b")\n')
    host.hook = None
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TRAP
    _assert_alive(arm, host)
    assert arm.pool.pid != worker


def test_a_larger_memory_ceiling_restarts_the_worker_with_room_for_it(arm: PythonArm, host: Host) -> None:
    run(arm, host, TRIVIAL, SHORT)
    before = arm.pool.pid
    big = Ceilings(timeout_secs=5.0, max_memory_bytes=2 * 1024**3)
    assert run(arm, host, 'x = "a" * 300_000_000\nprint(len(x))\n', big).ok
    assert arm.pool.pid != before
