"""The run's guest leases: one arm per language, built on first use, closed once at run end; an
arm handed in serves its language and stays its owner's. Each arm has a line of `maxParallel`
guests, at most two a core, which lets every turn in it go once the run stops."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

import pytest

from gg.agents import leases as leases_module
from gg.agents import seats
from gg.agents.leases import GuestLeases, guests_of
from gg.config.catalogue import Role
from gg.config.ceilings import Ceilings
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.execution import Execution, HostCalls
from gg.sandbox.languages import JAVASCRIPT, PYTHON, TYPESCRIPT
from gg.sandbox.lease import GUESTS
from gg.sandbox.membrane import Membrane
from gg.sdk.ablation import offered
from gg.sdk.catalogue import default_registry
from gg.sdk.codemodule import CodeModule
from gg.sdk.registry import Registry
from gg.sdk.scope import ProgramScope
from support.guest_world import CEILINGS, QuietLog
from support.lines import queued

REGISTRY = default_registry()


class CountedArm:
    """An arm that only counts its closes: the leases' bookkeeping is all these tests read."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.closes = 0

    def run(
        self, source: str, host: HostCalls, ceilings: Ceilings, modules: Sequence[CodeModule] = ()
    ) -> Execution:
        raise AssertionError("not run in these tests")

    def home(self, owner: str) -> None:
        return None

    def idle(self) -> frozenset[int]:
        return frozenset()

    def close(self) -> None:
        self.closes += 1


class Builder:
    def __init__(self) -> None:
        self.built: list[CountedArm] = []
        self.declared: list[Registry | None] = []

    def __call__(self, language: str, registry: Registry, declared: Registry | None = None) -> CountedArm:
        arm = CountedArm(language)
        self.built.append(arm)
        self.declared.append(declared)
        return arm


def test_each_language_gets_one_arm_built_on_its_first_lease() -> None:
    build = Builder()
    leases = GuestLeases(REGISTRY, build=build)
    assert build.built == []
    first = leases.arm(JAVASCRIPT)
    assert leases.arm(JAVASCRIPT) is first and leases.arm(PYTHON) is not first
    assert [arm.language for arm in build.built] == ["javascript", "python"]


def test_a_checked_language_gets_one_arm_per_withheld_set_and_an_unchecked_one_shares_its_arm() -> None:
    build = Builder()
    ablated = offered(REGISTRY, ["files.write_file"])
    leases = GuestLeases(REGISTRY, build=build)
    whole = leases.arm(TYPESCRIPT, REGISTRY)
    narrowed = leases.arm(TYPESCRIPT, ablated)
    again = offered(REGISTRY, ["files.write_file"])
    assert narrowed is not whole and leases.arm(TYPESCRIPT, again) is narrowed
    assert leases.arm(JAVASCRIPT, ablated) is leases.arm(JAVASCRIPT, REGISTRY)
    assert build.declared == [None, ablated, None]  # the checker of the narrowed arm reads its SDK
    leases.close()
    assert [arm.closes for arm in build.built] == [1, 1, 1]


def test_closing_closes_every_arm_built_once_and_a_later_lease_builds_anew() -> None:
    build = Builder()
    leases = GuestLeases(REGISTRY, build=build)
    javascript, python = leases.arm(JAVASCRIPT), leases.arm(PYTHON)
    leases.close()
    leases.close()
    assert [arm.closes for arm in build.built] == [1, 1]
    assert leases.arm(JAVASCRIPT) is not javascript and python.closes == 1


def test_an_arm_handed_in_serves_its_language_and_is_never_closed_by_the_run() -> None:
    build = Builder()
    given = CountedArm("typescript")
    with GuestLeases(REGISTRY, given, build=build) as leases:
        assert leases.arm(TYPESCRIPT) is given
        leases.arm(JAVASCRIPT)
    assert given.closes == 0 and [arm.language for arm in build.built] == ["javascript"]
    assert build.built[0].closes == 1


def test_a_language_without_an_arm_is_a_lookup_error() -> None:
    def no_arm(language: str, registry: Registry, declared: Registry | None = None) -> CountedArm:
        raise LookupError(f"no arm for the language `{language}` in this build")

    with pytest.raises(LookupError, match="javascript"):
        GuestLeases(REGISTRY, build=no_arm).arm(JAVASCRIPT)


def test_the_production_builder_leases_a_real_arm_that_runs_programs() -> None:
    with GuestLeases(REGISTRY) as leases:
        arm = leases.arm(JAVASCRIPT)
        assert isinstance(arm, JavaScriptArm)
        scope = ProgramScope("root", Role.STANDARD, frozenset(), None, None, 1)  # type: ignore[arg-type]
        host = Membrane(REGISTRY, scope, QuietLog(), JAVASCRIPT.id)
        execution = arm.run("console.log(6 * 7);", host, CEILINGS)
        assert execution.ok and execution.logs == ("42",)


def test_an_arm_has_two_guests_a_core() -> None:
    assert 2 * len(os.sched_getaffinity(0)) == GUESTS


def test_an_arms_guests_are_max_parallel_at_most_its_guests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leases_module, "GUESTS", 4)
    assert [guests_of(parallel) for parallel in (1, 2, 4, 32, 128)] == [1, 2, 4, 4, 4]


def test_each_arm_has_one_line_for_its_guests_holding_that_many(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leases_module, "GUESTS", 2)
    leases = GuestLeases(REGISTRY, build=Builder(), parallel=32)
    line = leases.guests(JAVASCRIPT).line
    assert leases.guests(JAVASCRIPT).line is line and leases.guests(PYTHON).line is not line
    assert line.acquire() and line.acquire()
    waiter = threading.Thread(target=line.acquire)
    waiter.start()
    assert queued(line, 1)
    assert leases.guests(PYTHON).acquire()  # another arm's guests are its own
    line.release()
    waiter.join(10)
    assert not waiter.is_alive()


def test_a_stopped_run_lets_every_turn_in_line_for_a_guest_go_now_and_later() -> None:
    leases = GuestLeases(REGISTRY, build=Builder(), parallel=1)
    line = leases.guests(JAVASCRIPT).line
    assert line.acquire()
    answers: list[bool] = []
    waiter = threading.Thread(target=lambda: answers.append(line.acquire()))
    waiter.start()
    assert queued(line, 1)
    leases.stop()
    waiter.join(10)
    assert answers == [False]
    assert not leases.guests(PYTHON).acquire()  # a line opened after the stop is stopped too


class HomedArm(CountedArm):
    """An arm whose owners' warm scopes live on the processes `homes` names, `idle` of them idle."""

    def __init__(self, language: str, homes: dict[str, str]) -> None:
        super().__init__(language)
        self.homes = homes
        self.idle_now: set[str] = set()

    def home(self, owner: str) -> str | None:  # type: ignore[override]
        return self.homes.get(owner)

    def idle(self) -> frozenset[str]:  # type: ignore[override]
        return frozenset(self.idle_now)


def test_an_agent_whose_own_guest_is_idle_takes_the_next_one_ahead_of_those_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(leases_module, "GUESTS", 2)
    monkeypatch.setattr(seats, "PATIENCE_SECS", 3600.0)  # a turn waits for its own guest till it frees
    arm = HomedArm("javascript", {"a": "q", "b": "p"})
    leases = GuestLeases(REGISTRY, given=arm, parallel=2)  # type: ignore[arg-type]
    held = leases.guests(JAVASCRIPT)
    assert held.acquire() and held.acquire()
    order: list[str] = []

    def turn(owner: str) -> None:
        line = leases.guests(JAVASCRIPT, owner)
        if line.acquire():
            order.append(owner)
            line.release()

    first = threading.Thread(target=turn, args=("a",))
    first.start()
    assert queued(held.line, 1)
    second = threading.Thread(target=turn, args=("b",))
    second.start()
    assert queued(held.line, 2)
    arm.idle_now = {"p"}  # b's process is idle, a's busy
    held.release()
    second.join(10)
    assert order == ["b"]  # a waits for its own process while a guest is held
    held.release()
    first.join(10)
    assert order == ["b", "a"]
