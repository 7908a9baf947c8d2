"""The run context: one clock read for the run's start, its deadline and its elapsed time; one
stream per agent; its arms closed with it."""

from __future__ import annotations

from gg.agents.context import RunContext
from gg.agents.leases import GuestLeases
from gg.sandbox.languages import JAVASCRIPT
from gg.sdk.catalogue import default_registry
from gg.telemetry.emitter import CollectingSink, Telemetry
from gg.telemetry.events import Log
from support.manual_clock import ManualClock

from .test_leases import Builder


def _context(
    clock: ManualClock, max_runtime_secs: float | None = None, build: Builder | None = None
) -> RunContext:
    registry = default_registry()
    return RunContext(
        telemetry=Telemetry("run-ctx", [CollectingSink()]),
        registry=registry,
        leases=GuestLeases(registry, build=build or Builder()),
        clock=clock,
        max_runtime_secs=max_runtime_secs,
    )


def test_the_run_starts_when_its_context_is_made_and_elapses_on_its_clock() -> None:
    clock = ManualClock(100.0)
    run = _context(clock)
    clock.advance(2.5)
    assert run.started == 100.0 and run.elapsed() == 2.5


def test_the_deadline_is_the_start_plus_the_runtime_ceiling_on_the_same_clock() -> None:
    assert _context(ManualClock(100.0), max_runtime_secs=30).deadline == 130.0
    assert _context(ManualClock(100.0)).deadline is None


def test_each_agent_s_stream_stamps_its_own_id_on_the_run_s_telemetry() -> None:
    sink = CollectingSink()
    run = _context(ManualClock(0.0))
    run.telemetry = Telemetry("run-ctx", [sink])
    run.stream("root").emit(Log(level="info", message="one", fields={}))
    run.stream("root.1").emit(Log(level="info", message="two", fields={}))
    assert [(e["agentId"], e["message"]) for e in sink.wire()] == [("root", "one"), ("root.1", "two")]


def test_closing_the_run_closes_the_arms_it_built() -> None:
    build = Builder()
    run = _context(ManualClock(0.0), build=build)
    run.leases.arm(JAVASCRIPT)
    run.close()
    assert [arm.closes for arm in build.built] == [1]
