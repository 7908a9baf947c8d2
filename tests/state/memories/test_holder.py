"""A holder's two watermarks: what it reports and what it is told, each advanced once; a new holder
owes and is owed no backlog; the log forgets what every live holder has read past."""

from __future__ import annotations

import gc
import threading

from gg.config.kinds import Origin
from gg.config.memories import Scope
from gg.state.memories import MemoryHolder, drain

from .world import Run, note, profile


def test_a_new_holder_of_a_filled_store_is_owed_no_backlog() -> None:
    run = Run()
    first = run.open(profile(scope=Scope.SHARED, slug="curator"), "first")
    first.store.write("first", note("m1"))
    later = run.open(profile(scope=Scope.SHARED, slug="curator"), "later")
    assert drain(later) == [] and later.take_news() == ()


def test_news_is_what_other_holders_wrote_and_is_delivered_once() -> None:
    run = Run()
    r = run.open(profile(scope=Scope.SHARED, slug="curator"), "R")
    c = run.open(profile(scope=Scope.SHARED, slug="curator"), "C")
    r.store.write("R", note("mine"))
    c.store.write("C", note("theirs"))
    assert [entry.name for entry in r.take_news()] == ["theirs"]
    assert r.take_news() == ()
    assert [entry.name for entry in c.take_news()] == ["mine"]


def test_reporting_and_being_told_advance_separately() -> None:
    run = Run()
    r = run.open(profile(scope=Scope.SHARED, slug="curator"), "R")
    c = run.open(profile(scope=Scope.SHARED, slug="curator"), "C")
    c.store.write("C", note("m"))
    assert len(drain(r)) == 1  # its snapshot; the news is still owed
    assert [entry.name for entry in r.take_news()] == ["m"]


def test_a_restamped_holders_writes_are_its_new_agents() -> None:
    holder = Run().open(profile(), "root")
    holder.restamp("root#2")
    holder.store.write(holder.agent_id, note("m"))
    assert holder.take_news() == () and len(holder.take_revisions().own) == 1


def test_the_log_forgets_what_every_live_holder_read_past_and_a_released_holder_holds_nothing_back() -> None:
    run = Run()
    r = run.open(profile(scope=Scope.SHARED, slug="curator"), "R")
    c = run.open(profile(scope=Scope.SHARED, slug="curator"), "C")
    store = r.store
    store.write("R", note("a"))
    store.write("R", note("b"))
    drain(r)
    r.take_news()
    assert store.retained_revisions == 2  # C has not looked
    drain(c)
    assert store.retained_revisions == 2
    c.take_news()
    assert store.retained_revisions == 0
    store.write("R", note("c"))
    c.release()
    drain(r)
    r.take_news()
    assert store.retained_revisions == 0 and store.holders == 1


def test_a_holder_dropped_without_release_stops_counting_as_a_holder() -> None:
    run = Run()
    root = run.open(profile(scope=Scope.SHARED, slug="curator"), "R")
    other = run.open(profile(scope=Scope.SHARED, slug="curator"), "C")
    assert root.co_holders() == 1 and other.origin is Origin.PROFILE
    del other
    gc.collect()
    assert root.co_holders() == 0


def test_holders_writing_from_their_own_threads_each_get_their_own_revisions_and_one_numbering() -> None:
    run = Run()
    holders = [run.open(profile(scope=Scope.SHARED, slug="crew"), f"agent-{n}") for n in range(4)]
    start = threading.Barrier(len(holders))

    def write_many(holder: MemoryHolder) -> None:
        start.wait()
        for n in range(50):
            holder.store.write(holder.agent_id, note(f"{holder.agent_id}-{n}"))
            if n:
                holder.store.update(holder.agent_id, note("shared-note", "x"))

    holders[0].store.write("agent-0", note("shared-note"))
    threads = [threading.Thread(target=write_many, args=(holder,)) for holder in holders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    drained = [e.to_wire() for h in holders for e in drain(h)[:-1]]
    numbers = [event["revision"] for event in drained if event["name"] == "shared-note"]
    assert sorted(numbers) == list(range(1, 4 * 49 + 2))
    assert [len(h.take_revisions().own) for h in holders] == [0, 0, 0, 0]
    assert len(holders[0].store.memories) == 4 * 50 + 1
