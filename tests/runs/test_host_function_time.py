"""A host function's call is bounded, end to end through `gg.run`: by its family's `timeout_secs`
and by what is left of the run's time. Past either, the program's call is answered
`limit-exceeded` naming the function, and the call is abandoned: a plain function's thread is left
to itself (never joined on the run's path), an `async def` one's task is cancelled.

Issue 21, item 4: a host function that hangs ignored `maxRuntimeSecs` (20 s past a 5 s ceiling
until Ctrl-C; 31 s against 8 s through `gg.run`)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import gg
from support import scripted_host
from support.scripted_host import Scripted
from support.waiting import came_true

RELEASE = threading.Event()  # lets every hanging plain function return; set after each test
CANCELLED: list[str] = []  # the async functions whose task was cancelled
WATCHDOG_SECS = 25.0  # a hanging call is released by then even when gg never abandons it
WELL_WITHIN_SECS = 20.0  # the runs below end well within this (their ceilings are 1 s and 3 s)

stall = gg.family("stall", doc="functions that take their time.", timeout_secs=1)
patient = gg.family("patient", doc="functions given all the time in the world.", timeout_secs=600)


@stall.operation(name="hang")
def stall_hang() -> int:
    """Wait until the test is over."""
    RELEASE.wait(WATCHDOG_SECS)
    return 1


@stall.operation(name="hang_later")
async def stall_hang_later() -> int:
    """Wait, on the run's loop, until cancelled."""
    return await _wait_forever("stall.hang_later")


@patient.operation(name="hang")
def patient_hang() -> int:
    """Wait until the test is over."""
    RELEASE.wait(WATCHDOG_SECS)
    return 1


@patient.operation(name="hang_later")
async def patient_hang_later() -> int:
    """Wait, on the run's loop, until cancelled."""
    return await _wait_forever("patient.hang_later")


async def _wait_forever(name: str) -> int:
    try:
        await asyncio.sleep(WATCHDOG_SECS)
    except asyncio.CancelledError:
        CANCELLED.append(name)
        raise
    return 1


@pytest.fixture(autouse=True)
def released() -> Iterator[None]:
    RELEASE.clear()
    CANCELLED.clear()
    yield
    RELEASE.set()


PROGRAMS = {
    "javascript": """import { stall, session } from "gg";
const seen = [];
for (const call of [() => stall.hang(), () => stall.hangLater()]) {
  try { call(); seen.push("answered"); } catch (e) { seen.push(`${e.code} ${e.operation}: ${e.message}`); }
}
session.finish(seen.join("\\n"));
""",
    "python": """import gg
seen = []
for call in [lambda: gg.stall.hang(), lambda: gg.stall.hang_later()]:
    try:
        call()
        seen.append("answered")
    except gg.ApiError as error:
        d = gg.core.details(error)
        seen.append(str(d.code) + " " + str(d.operation) + ": " + str(d.message))
gg.session.finish("\\n".join(seen))
""",
}


@pytest.mark.parametrize("language", ["javascript", "python"])
def test_a_call_past_its_familys_timeout_is_answered_limit_exceeded_naming_the_function(
    tmp_path: Path, language: str
) -> None:
    events: list[gg.Event] = []
    result = gg.run(
        scripted_host.config(tmp_path, language, ["stall"]),
        model=Scripted(PROGRAMS[language]),
        families=[stall],
        store=tmp_path,
        on_event=events.append,
    )
    assert not RELEASE.is_set()  # the plain function still hangs: its call was abandoned, not joined
    assert (result.status, result.exit_code) == ("completed", 0), result.message
    assert result.final_text == (
        "limit-exceeded hang: `stall.hang` did not answer within 1 s; the call was abandoned\n"
        "limit-exceeded hang_later: `stall.hang_later` did not answer within 1 s; the call was abandoned"
    )
    assert came_true(lambda: CANCELLED == ["stall.hang_later"], WATCHDOG_SECS)  # cancelled on the loop
    logs = [e.to_wire() for e in events if e.type == "log" and "did not answer" in e.to_wire()["message"]]
    assert [(log["level"], log["message"]) for log in logs] == [
        ("error", "host function `stall.hang` did not answer within 1 s; its call was abandoned"),
        ("error", "host function `stall.hang_later` did not answer within 1 s; its call was abandoned"),
    ]


@pytest.mark.parametrize("operation", ["hang", "hangLater"])
def test_a_hanging_call_ends_at_the_runs_deadline_and_the_run_times_out(
    tmp_path: Path, operation: str
) -> None:
    config = scripted_host.config(tmp_path, "javascript", ["patient"])
    config["limits"] = {"maxRuntimeSecs": 3}
    program = f'import {{ patient, session }} from "gg";\npatient.{operation}();\nsession.finish("on");\n'
    events: list[gg.Event] = []
    started = time.monotonic()
    result = gg.run(
        config, model=Scripted(program), families=[patient], store=tmp_path, on_event=events.append
    )
    took = time.monotonic() - started
    assert not RELEASE.is_set()  # the call was abandoned at the deadline, not joined
    assert (result.status, result.exit_code) == ("timed_out", 3)
    assert took < WELL_WITHIN_SECS
    (answered,) = [e.to_wire() for e in events if e.type == "api_result"]
    assert answered["failure"].startswith(
        f"limit-exceeded: `patient.{_snake(operation)}` did not answer within"
    )
    if operation == "hangLater":
        assert came_true(lambda: CANCELLED == ["patient.hang_later"], WATCHDOG_SECS)


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
