"""A program's time ceiling (`Deadline`), read on a manual clock: what runs on the program's
clock and what is given back to it."""

from __future__ import annotations

from gg.sandbox.watch import Deadline
from support.manual_clock import ManualClock


def test_a_ceiling_runs_out_its_seconds_after_it_is_set() -> None:
    clock = ManualClock()
    deadline = Deadline(2.0, clock=clock)
    clock.advance(1.5)
    assert deadline.remaining() == 0.5
    clock.advance(0.5)
    assert deadline.passed()


def test_a_call_that_waits_on_outside_work_is_given_back_and_any_other_call_is_not() -> None:
    clock = ManualClock()
    deadline = Deadline(2.0, external={"shell.shell"}, clock=clock)
    with deadline.call("shell.shell"):
        clock.advance(30.0)
    assert deadline.remaining() == 2.0
    with deadline.call("files.read"):
        clock.advance(1.0)
    assert deadline.remaining() == 1.0


def test_a_program_waiting_for_its_engine_may_wait_the_hold_however_short_its_ceiling() -> None:
    clock = ManualClock()
    deadline = Deadline(0.5, clock=clock)
    deadline.hold(15.0)
    clock.advance(14.0)
    assert not deadline.passed()
    clock.advance(1.0)
    assert deadline.passed()


def test_a_program_that_began_late_has_its_whole_ceiling_from_its_beginning() -> None:
    clock = ManualClock()
    deadline = Deadline(0.5, clock=clock)
    deadline.hold(15.0)
    clock.advance(3.0)
    deadline.begin(waited_secs=2.75)
    assert deadline.remaining() == 0.25
    clock.advance(0.25)
    assert deadline.passed()
