"""Which turn in line takes the next free place (`seat`): a pure decider for `gg.agents.scheduler`.

A turn in line may name its home: the guest process that holds its agent's warm scope. The line
knows which guest processes are idle. Rules kept here:
- a turn whose home is idle takes a place ahead of the turns before it (the first of the turns
  sharing that home): its program finds its scope warm instead of booting one;
- the places left once each idle home has its turn (spare places) go to the first turn that
  names no home, or that has waited `PATIENCE_SECS` (about what booting a new scope costs) for
  its own busy one: a place no waiting turn calls home is never left unused for long;
- a turn whose home is busy lets the turns behind it pass until it has been passed `PASSES`
  times: then it takes the next free place, its home's or not. A turn that must not wait for
  its home at all (one coming back inside a running program) enters already passed;
- while no turn holds a place, nothing will free a home, so the first turn takes one whatever
  its home;
- with no homes named, the line is first come, first served.
So whenever a place is free and a turn waits, some turn is seated, at once or after the places
held now are given back.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence, Set
from dataclasses import dataclass

PASSES = 32  # how many later turns may take a place ahead of a turn waiting for its own guest
PATIENCE_SECS = 0.05  # how long a turn waits for its own busy guest while a spare place is free

Home = Hashable | None


@dataclass(frozen=True)
class Waiting:
    """A turn in line: its home (None: none), how many turns behind it were seated first, and
    when it began to wait (on the line's clock)."""

    home: Home = None
    passed: int = 0
    since: float = 0.0

    def patience_left(self, now: float) -> float:
        """How much longer it waits for its own busy guest while a spare place is free."""
        return PATIENCE_SECS - (now - self.since)


@dataclass(frozen=True)
class Places:
    """The line's places: how many are free of how many, which homes are idle, and the time now
    (on the line's clock)."""

    free: int
    slots: int
    idle: Set[Hashable] = frozenset()
    now: float = 0.0


def seat(line: Sequence[Waiting], places: Places) -> int | None:
    """The index in `line` of the turn that takes the next free place; None when none does now."""
    if places.free <= 0:
        return None
    homed: dict[Hashable, int] = {}  # each idle home, and the first turn in line it is home to
    for index, waiting in enumerate(line):
        if waiting.home is not None and waiting.home in places.idle:
            homed.setdefault(waiting.home, index)
    first_at_home = set(homed.values())
    spare = places.free - len(first_at_home)
    idle_line = places.free == places.slots
    for index, waiting in enumerate(line):
        if index in first_at_home or waiting.passed >= PASSES:
            return index
        if spare > 0 and (waiting.home is None or idle_line or waiting.patience_left(places.now) <= 0):
            return index
    return None
