"""Which turn in line takes the next free place (`seat`): a pure decider for `gg.agents.scheduler`.

A turn in line may name its home: the guest process that holds its agent's warm scope. The line
knows which guest processes are idle. Rules kept here:
- a turn whose home is idle takes a place ahead of the turns before it (the first of the turns
  sharing that home): its program finds its scope warm instead of booting one;
- the places left once each idle home has its turn go to the first turn that names no home;
- a turn whose home is busy waits for it, and lets the turns behind it pass, until it has been
  passed `PASSES` times: then it takes the next free place, its home's or not. A turn that must
  not wait for its home at all (one coming back inside a running program) enters already passed;
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

Home = Hashable | None


@dataclass(frozen=True)
class Waiting:
    """A turn in line: its home (None: none) and how many turns behind it were seated first."""

    home: Home = None
    passed: int = 0


@dataclass(frozen=True)
class Places:
    """The line's places: how many are free of how many, and which homes are idle."""

    free: int
    slots: int
    idle: Set[Hashable] = frozenset()


def seat(line: Sequence[Waiting], places: Places) -> int | None:
    """The index in `line` of the turn that takes the next free place; None when none does now."""
    if places.free <= 0:
        return None
    homed: dict[Hashable, int] = {}  # each idle home, and the first turn in line it is home to
    for index, waiting in enumerate(line):
        if waiting.home is not None and waiting.home in places.idle:
            homed.setdefault(waiting.home, index)
    spare = places.free - len(homed)
    idle_line = places.free == places.slots
    for index, waiting in enumerate(line):
        if index in homed.values() or waiting.passed >= PASSES:
            return index
        if spare > 0 and (waiting.home is None or idle_line):
            return index
    return None
