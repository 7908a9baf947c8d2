"""The scheduler: at most `maxParallel` agents hold a slot at once, a slot is held for a turn and the
rest wait in line first come first served (in the order agents were started, whenever their
threads arrive), an agent waiting on others steps aside and comes back ahead of every turn not yet
begun (at once when interrupted), and a stopped run lets every waiter go."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Generator

import pytest

from gg.agents import seats
from gg.agents.context import RunContext
from gg.agents.leases import GuestLeases
from gg.agents.scheduler import Scheduler
from gg.loop.agent import _seated  # pyright: ignore[reportPrivateUsage]
from gg.sandbox.languages import JAVASCRIPT
from gg.sdk.catalogue import default_registry
from gg.telemetry.emitter import CollectingSink, Telemetry
from support.lines import queued


def _queue(scheduler: Scheduler, name: str, order: list[str], started: threading.Event) -> threading.Thread:
    def take() -> None:
        started.set()
        if scheduler.acquire():
            order.append(name)
            scheduler.release()

    thread = threading.Thread(target=take)
    thread.start()
    return thread


def test_agents_past_the_bound_wait_in_line_and_none_is_refused() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    order: list[str] = []
    threads = []
    for name in ("first", "second", "third"):
        started = threading.Event()
        threads.append(_queue(scheduler, name, order, started))
        started.wait()
        queued(scheduler, len(threads))
    assert order == []
    scheduler.release()
    for thread in threads:
        thread.join(10)
    assert order == ["first", "second", "third"]


def test_an_agent_stepping_aside_frees_its_slot_and_queues_again_after() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    order: list[str] = []
    with scheduler.stepped_aside():
        started = threading.Event()
        child = _queue(scheduler, "child", order, started)
        child.join(10)
    assert order == ["child"]
    scheduler.release()
    assert scheduler.acquire()


def test_stopping_lets_every_waiter_go_without_a_slot() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    order: list[str] = []
    started = threading.Event()
    waiter = _queue(scheduler, "waiter", order, started)
    started.wait()
    queued(scheduler, 1)
    scheduler.stop()
    waiter.join(10)
    assert order == [] and not waiter.is_alive() and scheduler.stopped
    assert not scheduler.acquire()


def test_a_place_reserved_when_an_agent_starts_keeps_its_order_whenever_its_thread_arrives() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    first, second = scheduler.reserve(), scheduler.reserve()
    order: list[str] = []

    def take(name: str, place: object) -> None:
        assert isinstance(place, type(first))
        if scheduler.acquire(place):
            order.append(name)
            scheduler.release()

    late = threading.Thread(target=take, args=("second", second))
    late.start()  # the second-started agent's thread reaches the gate first
    queued(scheduler, 2)
    early = threading.Thread(target=take, args=("first", first))
    early.start()
    scheduler.release()
    for thread in (late, early):
        thread.join(10)
    assert order == ["first", "second"]


def test_an_agent_taking_turn_after_turn_lets_the_line_take_theirs_in_between() -> None:
    scheduler = Scheduler(1)
    turns: list[str] = []
    assert scheduler.acquire()  # the busy agent's first turn
    started = threading.Event()
    other = _queue(scheduler, "other", turns, started)
    queued(scheduler, 1)
    turns.append("busy")
    scheduler.release()
    assert scheduler.acquire()  # the busy agent's second turn comes after the one in line
    turns.append("busy")
    scheduler.release()
    other.join(10)
    assert turns == ["busy", "other", "busy"]


def test_an_agent_back_from_a_wait_resumes_its_turn_ahead_of_every_turn_not_yet_begun() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    order: list[str] = []
    started = threading.Event()
    with scheduler.stepped_aside():
        assert scheduler.acquire()  # a child takes the freed slot
        waiters = [_queue(scheduler, name, order, started) for name in ("a", "b")]
        queued(scheduler, 2)
        scheduler.release()  # the child's turn ends; the wait it ended is over too
    order.append("resumed")  # the waiter holds the slot again, before either agent in line
    scheduler.release()
    for waiter in waiters:
        waiter.join(10)
    assert order == ["resumed", "a", "b"]


def test_an_interrupted_wait_takes_its_slot_back_at_once_without_waiting_in_line() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    order: list[str] = []
    started = threading.Event()
    with pytest.raises(KeyboardInterrupt), scheduler.stepped_aside():
        assert scheduler.acquire()  # a child's turn holds the slot and does not end
        _queue(scheduler, "in line", order, started)
        queued(scheduler, 1)
        raise KeyboardInterrupt
    assert order == []
    scheduler.stop()


def test_a_wait_that_fails_takes_its_slot_back_in_turn_so_the_bound_holds() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    with pytest.raises(TimeoutError), scheduler.stepped_aside():
        raise TimeoutError("the run's time ran out while waiting")
    order: list[str] = []
    started = threading.Event()
    waiter = _queue(scheduler, "waiter", order, started)
    assert queued(scheduler, 1)  # the failed wait holds the slot again: the next agent waits
    assert order == []
    scheduler.release()
    waiter.join(10)
    assert order == ["waiter"]


class _Watched(threading.Condition):
    """A line's condition that tells the test when the main thread next waits on it."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.main_waits = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        if self.armed and threading.current_thread() is threading.main_thread():
            self.main_waits.set()
        return super().wait(timeout)


def _watched(line: Scheduler) -> _Watched:
    watched = line._changed = _Watched()  # pyright: ignore[reportPrivateUsage]
    return watched


def _interrupt_at_next_wait(watched: _Watched) -> threading.Thread:
    """A SIGINT to the main thread once it waits in `watched`'s line (the condition's lock taken
    here proves it is inside the wait); the line is woken too, so the interruption lands in the
    wait however the signal met it."""

    def interrupt() -> None:
        watched.main_waits.wait(10)
        with watched:
            main = threading.main_thread().ident
            assert main is not None
            signal.pthread_kill(main, signal.SIGINT)
            watched.notify_all()

    watched.armed = True
    thread = threading.Thread(target=interrupt)
    thread.start()
    return thread


@pytest.fixture
def ctrl_c_raises() -> Generator[None]:
    """SIGINT raises `KeyboardInterrupt` in the main thread, even in a process started with it
    ignored (a background job)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_an_agent_interrupted_in_line_leaves_it_so_the_agents_behind_it_take_their_turns() -> None:
    scheduler = Scheduler(1)
    watched = _watched(scheduler)
    assert scheduler.acquire()  # a turn that does not end yet
    place = scheduler.reserve()  # the interrupted agent's place, at the head of the line
    order: list[str] = []
    behind = _queue(scheduler, "behind", order, threading.Event())
    assert queued(scheduler, 2)
    interrupter = _interrupt_at_next_wait(watched)
    with pytest.raises(KeyboardInterrupt):
        scheduler.acquire(place)
    interrupter.join(10)
    scheduler.release()  # the turn ends: the agent behind is next, the interrupted one is gone
    behind.join(10)
    scheduler.stop()
    assert order == ["behind"]


@pytest.mark.usefixtures("ctrl_c_raises")
def test_an_agent_interrupted_in_line_to_take_its_slot_back_takes_it_at_once_and_blocks_no_one() -> None:
    scheduler = Scheduler(1)
    watched = _watched(scheduler)
    assert scheduler.acquire()
    with pytest.raises(KeyboardInterrupt), scheduler.stepped_aside():
        assert scheduler.acquire()  # a child's turn holds the freed slot
        interrupter = _interrupt_at_next_wait(watched)
    interrupter.join(10)  # the wait ended; the interruption came as it waited to take its slot back
    order: list[str] = []
    behind = _queue(scheduler, "behind", order, threading.Event())
    assert queued(scheduler, 1)  # only the agent behind waits: the interrupted one holds its slot
    scheduler.release()  # the interrupted turn gives its slot back as it ends
    assert order == []  # the bound holds: the child's turn still holds the one slot
    scheduler.release()  # the child's turn ends
    behind.join(10)
    scheduler.stop()
    assert order == ["behind"]


def test_a_run_stopping_while_an_agent_waits_to_take_its_slot_back_lets_it_go_holding_one() -> None:
    scheduler = Scheduler(1)
    watched = _watched(scheduler)
    assert scheduler.acquire()

    def stop() -> None:
        watched.main_waits.wait(10)
        with watched:
            scheduler.stop()

    with scheduler.stepped_aside():
        assert scheduler.acquire()  # a child's turn holds the freed slot and never ends
        watched.armed = True
        stopper = threading.Thread(target=stop)
        stopper.start()
    stopper.join(10)
    assert scheduler.stopped
    assert not scheduler.acquire()  # nothing new is seated; the resumed turn gives back its slot
    scheduler.release()


@pytest.mark.usefixtures("ctrl_c_raises")
def test_a_turn_interrupted_in_line_for_a_guest_gives_its_slot_back() -> None:
    registry = default_registry()
    run = RunContext(
        telemetry=Telemetry("run-lines", [CollectingSink()]),
        registry=registry,
        leases=GuestLeases(registry, parallel=1),
        clock=time.monotonic,
        max_runtime_secs=None,
        scheduler=Scheduler(2),
    )
    guests = run.guests(JAVASCRIPT)
    watched = _watched(guests)
    assert run.take_slot(None) and guests.acquire()  # another turn holds the arm's one guest
    interrupter = _interrupt_at_next_wait(watched)
    with pytest.raises(KeyboardInterrupt):
        _seated(run, guests, None)
    interrupter.join(10)
    order: list[str] = []
    next_turn = _queue(run.scheduler, "next turn", order, threading.Event())
    next_turn.join(10)  # the interrupted turn's slot is free again: the next turn is seated at once
    run.stop()
    assert order == ["next turn"]


def test_coming_back_inside_a_running_program_takes_the_first_free_slot_whatever_its_home(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(seats, "PATIENCE_SECS", 3600.0)  # a turn waits for its own guest till it frees
    scheduler = Scheduler(2, idle=lambda: {"p"})
    assert scheduler.acquire()  # another turn holds a slot all along
    assert scheduler.acquire()  # this turn's, its first (its home not yet known)
    with scheduler.stepped_aside("q", holding=True):
        pass  # back at once, though its home "q" is busy and a slot is held
    order: list[str] = []

    def back_from_its_model() -> None:
        with scheduler.stepped_aside("q"):
            pass
        order.append("back")

    thread = threading.Thread(target=back_from_its_model)
    thread.start()
    queued(scheduler, 1)
    assert order == []  # it waits for its home while the other slot is held
    scheduler.release()  # no slot held: the first in line goes, whatever its home
    thread.join(10)
    assert order == ["back"]


def test_a_turn_waits_for_its_own_busy_guest_a_while_then_takes_a_free_slot() -> None:
    scheduler = Scheduler(2, idle=lambda: {"p"})
    assert scheduler.acquire()  # another turn holds a slot all along; one is free
    seated = threading.Event()
    thread = threading.Thread(target=lambda: scheduler.acquire(home="q") and seated.set())
    thread.start()
    assert seated.wait(10)  # its own guest "q" never came free
    thread.join(10)
