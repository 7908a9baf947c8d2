"""Programs of different agents on one arm at once: each runs on a guest process of its own, so a
program waiting in a host call (a parent waiting for its sub-agents) never stops another's."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from gg.config.ceilings import Ceilings
from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm, Execution
from gg.sdk.catalogue import default_registry

CEILINGS = Ceilings(timeout_secs=60.0, max_memory_bytes=256 * 1024 * 1024)
WAIT_SECS = 30.0  # how long the first program's host call waits for the second program at most
PROGRAMS = {
    "javascript": 'import { views } from "gg";\nviews.openText("{label}", "body");\n',
    "typescript": (
        'import { views } from "gg";\nconst label: string = "{label}";\nviews.openText(label, "body");\n'
    ),
    "python": 'from gg import views\nviews.open_text("{label}", "body")\n',
    "python-typed": 'from gg import views\nlabel: str = "{label}"\nviews.open_text(label, "body")\n',
}


pytestmark = pytest.mark.arms(*PROGRAMS)


def _program(arm: Arm, label: str) -> str:
    return PROGRAMS[arm.language].replace("{label}", label)


class Waiter:
    """The first agent's membrane: its one call waits until the second agent's program is done."""

    def __init__(self, second_done: threading.Event) -> None:
        self.entered = threading.Event()
        self.second_done = second_done
        self.saw_second_done = False

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any:
        self.entered.set()
        self.saw_second_done = self.second_done.wait(WAIT_SECS)
        return None


def _in_thread(arm: Arm, source: str, host: Any, into: list[Execution]) -> threading.Thread:
    thread = threading.Thread(target=lambda: into.append(arm.run(source, host, CEILINGS)), daemon=True)
    thread.start()
    return thread


def test_a_program_waiting_in_a_host_call_never_stops_another_agents_program(arm: Arm) -> None:
    second_done = threading.Event()
    first_host = Waiter(second_done)
    first: list[Execution] = []
    second: list[Execution] = []
    first_thread = _in_thread(arm, _program(arm, "first"), first_host, first)
    assert first_host.entered.wait(WAIT_SECS), "the first program never made its call"
    second_thread = _in_thread(arm, _program(arm, "second"), lambda operation, args: None, second)
    second_thread.join(WAIT_SECS)
    assert not second_thread.is_alive(), "the second program waited for the first"
    assert second[0].ok, second[0].failure
    second_done.set()
    first_thread.join(WAIT_SECS)
    assert not first_thread.is_alive()
    assert first_host.saw_second_done
    assert first[0].ok, first[0].failure


@pytest.fixture(params=list(PROGRAMS))
def own_arm(request: pytest.FixtureRequest) -> Iterator[Arm]:
    """An arm of the test's own, which it may close."""
    built = build_arm(request.param, default_registry())
    yield built
    built.close()


def test_an_idle_guest_serves_the_next_program_and_close_stops_every_guest(own_arm: Arm) -> None:
    arm = own_arm
    pool: Any = arm.pool  # pyright: ignore[reportAttributeAccessIssue]
    assert arm.run(_program(arm, "warm"), lambda operation, args: None, CEILINGS).ok
    started = pool.started
    for n in range(3):
        assert arm.run(_program(arm, f"again{n}"), lambda operation, args: None, CEILINGS).ok
    assert pool.started == started, "sequential programs reuse one idle guest"
    pids = [process.pid for process in pool._leases._idle]  # pyright: ignore[reportPrivateUsage]
    assert pids
    arm.close()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert arm.run(_program(arm, "after"), lambda operation, args: None, CEILINGS).ok
