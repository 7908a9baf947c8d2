"""`asyncio` on the Python arm: an awaited sleep is a scheduling point, so `asyncio.gather` runs its
tasks together as CPython does (the worker parks each sleep and settles it when it is due); a sleep
of 0 the engine answers itself and lets no other task run, which the prompt's statement of the
subset names."""

from __future__ import annotations

from montyworld import PYTHON, Host, printed, subset

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.sandbox.execution import Arm
from gg.sandbox.monty.worker.sleeps import NOT_PENDING, Sleeps
from support.manual_clock import ManualClock
from support.wall_bounds import STOPPED_WITHIN_SECS

pytestmark = PYTHON

TASKS = """import asyncio
order = []


async def task(name, secs):
    order.append(name + "1")
    await asyncio.sleep(secs)
    order.append(name + "2")
    await asyncio.sleep(secs)
    order.append(name + "3")
    return name


async def main():
    return await asyncio.gather(GATHERED)


print(repr(asyncio.run(main())))
print(repr(order))
"""


def test_gather_runs_its_tasks_together_at_every_sleep_as_cpython_does(arm: Arm) -> None:
    source = TASKS.replace("GATHERED", 'task("a", 0.01), task("b", 0.01), task("c", 0.01)')
    assert printed(arm, source) == [
        "['a', 'b', 'c']",
        "['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3']",
    ]


def test_a_task_whose_sleep_is_due_first_goes_on_first(arm: Arm) -> None:
    source = TASKS.replace("GATHERED", 'task("quick", 0.01), task("slow", 0.2)')
    assert printed(arm, source) == [
        "['quick', 'slow']",
        "['quick1', 'slow1', 'quick2', 'quick3', 'slow2', 'slow3']",
    ]


def test_a_sleep_gives_back_its_result_and_lasts_at_least_its_time(arm: Arm) -> None:
    source = (
        "import asyncio\nimport time\n\n\nasync def main():\n    started = time.monotonic()\n"
        '    got = await asyncio.sleep(0.05, "r")\n    return got, time.monotonic() - started >= 0.05\n\n\n'
        "print(repr(asyncio.run(main())))\n"
    )
    assert printed(arm, source) == ["('r', True)"]


def test_an_sdk_call_inside_a_task_is_answered_at_once(arm: Arm) -> None:
    source = (
        "import asyncio\nimport gg\n\n\nasync def show(label):\n    await asyncio.sleep(0.01)\n"
        '    gg.views.open_text(label, "before")\n    await asyncio.sleep(0.01)\n'
        '    gg.views.open_text(label, "after")\n\n\n'
        'async def main():\n    await asyncio.gather(show("a"), show("b"))\n\n\nasyncio.run(main())\n'
    )
    host = Host()
    assert printed(arm, source, host) == []
    assert [(args["label"], args["body"]) for _, args in host.calls] == [
        ("a", "before"),
        ("b", "before"),
        ("a", "after"),
        ("b", "after"),
    ]


def test_a_sleep_of_zero_lets_no_other_task_run_and_the_subset_says_so(arm: Arm) -> None:
    source = TASKS.replace("GATHERED", 'task("a", 0), task("b", 0)')
    assert printed(arm, source) == [
        "['a', 'b']",
        "['a1', 'a2', 'a3', 'b1', 'b2', 'b3']",  # CPython: ['a1', 'b1', 'a2', 'b2', 'a3', 'b3']
    ]
    assert "`await asyncio.sleep(0)` lets no other task run, a longer sleep does" in subset()
    assert "`asyncio` (only `run`, `gather` and `sleep`;" in subset()


def test_a_long_awaited_sleep_meets_the_time_ceiling_and_the_next_program_runs(arm: Arm) -> None:
    source = "import asyncio\n\n\nasync def main():\n    await asyncio.sleep(3600)\n\n\nasyncio.run(main())\n"
    short = Ceilings(timeout_secs=0.5, max_memory_bytes=64 * 1024 * 1024)
    execution = arm.run(source, Host(), short)
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
    assert execution.failure.text == "The program was stopped at its 0.5 s timeout."
    assert execution.duration_ms / 1000 < STOPPED_WITHIN_SECS
    assert printed(arm, "print('alive')") == ["alive"]


# ---- the worker's parked sleeps, on a clock the test moves ------------------------------------


def sleeps_on(clock: ManualClock) -> tuple[Sleeps, list[float]]:
    waited: list[float] = []

    def wait(secs: float) -> None:
        waited.append(secs)
        clock.advance(secs)

    return Sleeps(clock=clock, wait=wait), waited


def test_the_worker_waits_for_the_earliest_sleep_and_settles_every_one_due_earliest_first() -> None:
    clock = ManualClock()
    sleeps, waited = sleeps_on(clock)
    sleeps.park(7, 0.75)
    sleeps.park(8, 0.5)
    clock.advance(0.25)
    sleeps.park(9, 0.25)  # due with 8, asked later
    assert list(sleeps.settle([7, 8, 9])) == [8, 9]
    assert waited == [0.25]
    assert list(sleeps.settle([7])) == [7] and waited == [0.25, 0.25]


def test_a_sleep_already_due_is_settled_without_waiting() -> None:
    clock = ManualClock()
    sleeps, waited = sleeps_on(clock)
    sleeps.park(1, 0.1)
    clock.advance(1.0)
    assert sleeps.settle([1]) == {1: {"return_value": None}} and waited == []


def test_a_pending_call_the_worker_never_parked_is_refused() -> None:
    clock = ManualClock()
    sleeps, waited = sleeps_on(clock)
    sleeps.park(1, 0.1)
    assert sleeps.settle([1, 2]) == {2: NOT_PENDING} and waited == []
    assert sleeps.settle([1]) == {1: {"return_value": None}}
