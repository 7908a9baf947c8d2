"""The lease rules of a pool, over processes that are plain values: which process a lease gets,
which ones go back to the spares, and which ones are stopped."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field

import pytest

from gg.sandbox.lease import Leases

_numbers = itertools.count(1)


@dataclass(eq=False)
class Proc:
    size: int
    number: int = field(default_factory=lambda: next(_numbers))
    dead: bool = False
    killed: int = 0
    log: list[str] = field(default_factory=list[str])  # what befell it, shared between processes

    def alive(self) -> bool:
        return not self.dead

    def stop(self) -> None:
        self.log.append(f"stop {self.number}")
        self.dead = True

    def kill(self) -> None:
        self.log.append(f"reap {self.number}")
        self.killed += 1
        self.dead = True


def _leases(spares: int = 4) -> tuple[Leases[Proc], list[Proc]]:
    made: list[Proc] = []

    def start(size: int) -> Proc:
        made.append(Proc(size))
        return made[-1]

    return Leases(start, lambda process, need: need <= process.size, spares), made


def test_the_first_lease_starts_a_process_and_the_next_one_reuses_it() -> None:
    leases, made = _leases()
    assert leases.latest is None
    with leases.lease(1) as first:
        assert leases.latest is first
    with leases.lease(1) as second:
        assert second is first
    assert leases.started == 1 and made == [first] and first.killed == 0


def test_leases_held_at_once_get_processes_of_their_own() -> None:
    leases, made = _leases()
    with leases.lease(1) as one, leases.lease(1) as two, leases.lease(1) as three:
        assert len({one.number, two.number, three.number}) == 3
    assert leases.started == 3 and all(process.killed == 0 for process in made)


def test_past_the_spares_the_process_idle_longest_is_stopped() -> None:
    leases, made = _leases(spares=2)
    with leases.lease(1), leases.lease(1), leases.lease(1):
        pass
    # given back in the order three, two, one: three has been idle longest
    assert [process.killed for process in made] == [0, 0, 1]
    with leases.lease(1) as again:
        assert again is made[0], "the process given back last serves first"


def test_a_larger_need_replaces_the_idle_process_rather_than_adding_one() -> None:
    leases, made = _leases()
    with leases.lease(1):
        pass
    with leases.lease(5) as larger:
        assert larger.size == 5
    assert made[0].killed == 1 and leases.started == 2
    with leases.lease(2) as smaller:
        assert smaller is larger, "a process started for more serves a smaller need"


def test_a_process_that_died_while_idle_is_never_handed_out() -> None:
    leases, made = _leases()
    with leases.lease(1):
        pass
    made[0].dead = True
    with leases.lease(1) as fresh:
        assert fresh is not made[0]


def test_a_discarded_process_or_one_whose_block_raised_never_serves_again() -> None:
    leases, made = _leases()
    with leases.lease(1) as process:
        leases.discard(process)
        assert leases.latest is None
    with pytest.raises(RuntimeError), leases.lease(1):
        raise RuntimeError("the host failed")
    assert [process.killed for process in made] == [1, 1]
    with leases.lease(1) as third:
        assert third not in made[:2]


def test_close_stops_leased_and_idle_processes_and_a_later_lease_starts_anew() -> None:
    leases, made = _leases()
    with leases.lease(1):
        pass
    entered, closed = threading.Event(), threading.Event()

    def hold() -> None:
        with leases.lease(1):
            entered.set()
            closed.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert entered.wait(10)
    with leases.lease(1):
        leases.close()
    closed.set()
    holder.join(10)
    stopped = list(made)
    assert len(stopped) == 2 and all(process.killed == 1 for process in stopped), "each stopped once"
    with leases.lease(1) as later:
        assert later not in stopped and later.alive()


def _settled(leases: Leases[Proc], started: int) -> None:
    deadline = time.monotonic() + 30
    while leases.started < started and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_process_discarded_with_replace_is_replaced_in_the_background_and_serves_next() -> None:
    leases, made = _leases()
    with leases.lease(3) as stopped:
        leases.discard(stopped, replace=3)
    _settled(leases, 2)
    with leases.lease(3) as next_one:
        assert next_one is made[1] and next_one.size == 3 and not next_one.dead
    assert stopped.killed == 1 and leases.started == 2


def test_close_kills_every_process_before_it_reaps_any() -> None:
    log: list[str] = []
    made: list[Proc] = []

    def start(size: int) -> Proc:
        made.append(Proc(size, log=log))
        return made[-1]

    leases = Leases(start, lambda process, need: need <= process.size, 4)
    with leases.lease(1), leases.lease(1), leases.lease(1):
        pass
    log.clear()
    leases.close()
    stops, reaps = log[:3], log[3:]
    assert sorted(stops) == sorted(f"stop {p.number}" for p in made)
    assert sorted(reaps) == sorted(f"reap {p.number}" for p in made)


def test_no_replacement_is_kept_once_the_pool_was_closed() -> None:
    leases, made = _leases()
    with leases.lease(1) as process:
        leases.close()
        leases.discard(process, replace=1)
    time.sleep(0.05)
    assert leases.started == 1 and len(made) == 1


def test_a_lease_takes_the_idle_process_it_prefers_before_the_one_given_back_last() -> None:
    leases, made = _leases()
    with leases.lease(1) as first, leases.lease(1) as second:
        assert first is not second
    # `first` went back last, so a plain lease would take it; one preferring `second` takes that
    with leases.lease(1, lambda process: process is second) as preferred:
        assert preferred is second
    with leases.lease(1) as plain:
        assert plain is second  # given back last now
    with leases.lease(1, lambda process: process is first) as again:
        assert again is first
    assert leases.started == 2 and made == [first, second]


def test_a_preferred_process_too_small_for_the_need_is_passed_over() -> None:
    leases, _ = _leases()
    with leases.lease(1) as small:
        pass
    with leases.lease(2, lambda process: process is small) as large:
        assert large is not small and large.size == 2
