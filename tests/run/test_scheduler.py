"""The scheduler: at most `maxParallel` agents hold a slot at once, the rest wait in line first come
first served, an agent waiting on others steps aside, and a stopped run lets every waiter go."""

from __future__ import annotations

import threading

from gg.run.scheduler import Scheduler


def _queue(scheduler: Scheduler, name: str, order: list[str], started: threading.Event) -> threading.Thread:
    def take() -> None:
        started.set()
        if scheduler.acquire():
            order.append(name)
            scheduler.release()

    thread = threading.Thread(target=take)
    thread.start()
    return thread


def _queued(scheduler: Scheduler, count: int) -> None:
    """Until `count` agents wait in line."""
    with scheduler._changed:  # pyright: ignore[reportPrivateUsage]
        scheduler._changed.wait_for(lambda: len(scheduler._line) == count, timeout=10)  # pyright: ignore[reportPrivateUsage]


def test_agents_past_the_bound_wait_in_line_and_none_is_refused() -> None:
    scheduler = Scheduler(1)
    assert scheduler.acquire()
    order: list[str] = []
    threads = []
    for name in ("first", "second", "third"):
        started = threading.Event()
        threads.append(_queue(scheduler, name, order, started))
        started.wait()
        _queued(scheduler, len(threads))
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
    _queued(scheduler, 1)
    scheduler.stop()
    waiter.join(10)
    assert order == [] and not waiter.is_alive() and scheduler.stopped
    assert not scheduler.acquire()
