"""The run an agent's turns take place in, as the loop reads it (`Run`).

The loop is handed the run, never builds it: whatever carries these members is one
(`gg.agents.context.RunContext` does). What the loop reads of it:
- its one monotonic clock, its deadline, what is left of its time, whether it is spent, and how
  long it has run (the runtime ceiling);
- what it has spent on its models (`spend`: the cost ceiling reads it, every reply adds to it);
- its `maxParallel` slots: a turn takes one as it starts, at the place in line its agent was given
  when started (`Ticket`), and gives it back as it ends; an agent stopped before its first turn
  leaves its place;
- its arm for a language, leased for each program, and the line for that arm's guests
  (`GuestLine`): a turn takes one once it has its slot, steps aside while it waits on outside
  work, and gives it back as it ends;
- the waits an agent declared, cleared once its turn's waits are over, and the board issues it
  waits on, each answered as it stands when the wait ends (`IssueAnswer`);
- the fault it holds, when one stopped it: no model is asked and no program runs after it;
- a hook that could not judge (`hook_failed`): the run stops and ends `hook_error`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from gg.deadline import MonotonicClock
from gg.loop.spend import Spend
from gg.sandbox.execution import Arm
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.registry import Registry
from gg.state.board import IssueStatus


class Ticket:
    """One place in the line for the run's slots."""


class GuestLine(Protocol):
    """The line for one arm's guests, as one agent takes them (`gg.agents.leases`)."""

    def acquire(self) -> bool:
        """Take a guest, waiting in line for one; False when the run stopped before one came free."""
        ...

    def release(self) -> None: ...

    def stepped_aside(self, *, holding: bool = False) -> AbstractContextManager[None]:
        """Give the guest back for the block (outside work), then take one at the head of the
        line; `holding`: the block is inside a program that keeps its guest process all along."""
        ...


@dataclass(frozen=True)
class IssueAnswer:
    """An issue as a wait answers it: its id, its status, and the last word on it."""

    id: str
    status: IssueStatus
    summary: str | None = None


class Run(Protocol):
    @property
    def clock(self) -> MonotonicClock: ...

    @property
    def deadline(self) -> float | None:
        """When the run's time is spent, on its clock; None when unbounded."""
        ...

    @property
    def spend(self) -> Spend: ...

    @property
    def fault(self) -> str | None:
        """The fault that stopped the run, when one did."""
        ...

    def elapsed(self) -> float: ...

    def left(self) -> float | None: ...

    def spent(self) -> bool: ...

    def hook_failed(self, failure: str) -> None:
        """A hook judged nothing: every agent stops and the run ends `hook_error`, naming it."""
        ...

    def halt_if_broken(self) -> None:
        """Raise `GgDefect(RUN_BROKEN)` when the run holds a fault: the step about to be taken is not."""
        ...

    def take_slot(self, place: Ticket | None) -> bool:
        """Take a slot for a turn, at `place` in line (the back when None); False when the run
        stopped before one came free."""
        ...

    def give_slot(self) -> None: ...

    def leave_line(self, place: Ticket) -> None:
        """Give up a place in line without taking a turn."""
        ...

    def arm(self, language: LanguageSpec, offered: Registry | None = None) -> Arm:
        """The run's arm for `language`, checking programs against the SDK `offered` (the run's
        when None)."""
        ...

    def guests(self, language: LanguageSpec, owner: str | None = None) -> GuestLine:
        """The line for the guests of the run's arm for `language`, as `owner` (an agent
        incarnation, `Incarnation.owner`) takes them: its own guest first."""
        ...

    def clear_waits(self, lineage: str) -> None:
        """Forget every wait the agents of `lineage` declared."""
        ...

    def wait_for_issues(self, issues: Sequence[str]) -> Sequence[IssueAnswer]:
        """Each of `issues` once all are done or failed, or as they stand when the run's time runs
        out or the run stops; none in a run without a board."""
        ...
