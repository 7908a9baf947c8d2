"""The run's agents as their parents see them: one `Lineage` per agent (its incarnations share one
slot, one inbox and one return value), named by its first incarnation's id.

Rules kept here:
- a child's `slot` is its place among the children its parent's lineage started (spawns and
  forks together, from 1, in the order of the calls);
- a message to a child waits in its inbox until its next prompt; a message to an agent that is
  not the sender's child is `not-found`, to a child that has ended `conflict`. One turn of a child
  is handed at most `MAX_INBOX_BYTES` (262,144 UTF-8 bytes, four messages at their cap): a message
  that would take its inbox past that is refused whole (`limit-exceeded`, saying what the inbox
  holds), never cut and never held over to a later turn, and may be sent again once the child
  has taken its next turn;
- a wait names children by id (their lineage's, or any incarnation's), or none: then every
  child not yet collected by a wait. It blocks until each has a result, and answers them in the
  order named (or started). A fork declared in the waiting turn is not a child yet; a name that is
  no child is `not-found`. The run's deadline ends a wait (`limit-exceeded`), and so does the
  run stopping.
Safe from every agent thread.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gg import prompts
from gg.deadline import is_spent, time_left, within
from gg.errors import ErrorCode, OperationError
from gg.loop.status import AgentStatus
from gg.state.window import MAX_VIEW_BODY_BYTES, wire_size

POLL_SECS = 0.25  # how often a wait re-reads the run's clock for its deadline
MAX_INBOX_BYTES = 4 * MAX_VIEW_BODY_BYTES  # what one turn of a child may be handed: 262,144 bytes


@dataclass(frozen=True)
class ChildResult:
    """What a child ended with, as `waitForSubagents` hands it over (a `SubagentResult`)."""

    id: str
    status: AgentStatus
    summary: str
    approved: bool | None = None
    changes: tuple[str, ...] | None = None

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"id": self.id, "status": self.status.value, "summary": self.summary}
        if self.approved is not None:
            wire["approved"] = self.approved
        if self.changes is not None:
            wire["changes"] = list(self.changes)
        return wire


@dataclass
class Lineage:
    id: str
    parent: str | None
    slot: int
    current: str
    result: ChildResult | None = None
    collected: bool = False
    inbox: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])  # (sender, message)
    inbox_bytes: int = 0  # the UTF-8 bytes of what the inbox holds


class Lineages:
    def __init__(self) -> None:
        self._by_id: dict[str, Lineage] = {}
        self._incarnations: dict[str, str] = {}  # any incarnation's id -> its lineage's
        self._slots = Counter[str | None]()
        self._halted = False
        self._changed = threading.Condition()

    def reserve_slot(self, parent: str) -> int:
        """The next child's place among `parent`'s children."""
        with self._changed:
            self._slots[parent] += 1
            return self._slots[parent]

    def open(self, lineage: str, parent: str | None, slot: int = 0) -> Lineage:
        with self._changed:
            opened = Lineage(lineage, parent, slot, lineage)
            self._by_id[lineage] = opened
            self._incarnations[lineage] = lineage
            return opened

    def move(self, lineage: str, incarnation: str) -> None:
        """The lineage's next incarnation took over."""
        with self._changed:
            self._by_id[lineage].current = incarnation
            self._incarnations[incarnation] = lineage

    def finish(self, lineage: str, result: ChildResult) -> None:
        with self._changed:
            self._by_id[lineage].result = result
            self._changed.notify_all()

    def result_of(self, lineage: str) -> ChildResult | None:
        """What lineage `lineage` ended with; None while it runs."""
        with self._changed:
            return self._by_id[lineage].result

    def ended(self, lineage: str) -> bool:
        """Whether lineage `lineage` was opened and has ended."""
        with self._changed:
            found = self._by_id.get(lineage)
            return found is not None and found.result is not None

    def targets_of(self, parent: str, ids: Sequence[str] | None, pending: Sequence[str]) -> list[str]:
        """The lineages a wait of `parent` on `ids` names (see `wait`); raises as `wait` does."""
        with self._changed:
            return [target.id for target in self._targets(parent, ids, pending)]

    def running(self) -> list[Lineage]:
        """Every lineage without a result yet, in the order they opened."""
        with self._changed:
            return [lineage for lineage in self._by_id.values() if lineage.result is None]

    def post(self, sender: str, parent: str, child: str, message: str) -> None:
        with self._changed:
            target = self._child(parent, child, "send_message")
            if target.result is not None:
                raise OperationError(
                    "send_message", ErrorCode.CONFLICT, f"`{child}` has ended; it reads no more messages"
                )
            size = wire_size(message, MAX_INBOX_BYTES)
            if target.inbox_bytes + size > MAX_INBOX_BYTES:
                full = prompts.render(
                    "inbox-full", child=child, held=target.inbox_bytes, size=size, bound=MAX_INBOX_BYTES
                )
                raise OperationError("send_message", ErrorCode.LIMIT_EXCEEDED, full)
            target.inbox.append((sender, message))
            target.inbox_bytes += size

    def take_inbox(self, lineage: str) -> list[tuple[str, str]]:
        with self._changed:
            held = self._by_id[lineage]
            taken, held.inbox, held.inbox_bytes = held.inbox, [], 0
            return taken

    def wait(
        self,
        parent: str,
        ids: Sequence[str] | None,
        pending: Sequence[str],
        deadline: float | None,
        clock: Callable[[], float],
    ) -> list[ChildResult]:
        """The named children's results once every one has ended (see the module rules)."""
        with self._changed:
            targets = self._targets(parent, ids, pending)
            while not all(t.result is not None for t in targets):
                self._check_still_waiting(targets, deadline, clock)
                left = within(POLL_SECS, time_left(deadline, clock()))
                self._changed.wait(left)
            for target in targets:
                target.collected = True
            return [t.result for t in targets if t.result is not None]

    def halt(self) -> None:
        """The run is stopping: every wait ends."""
        with self._changed:
            self._halted = True
            self._changed.notify_all()

    def _targets(self, parent: str, ids: Sequence[str] | None, pending: Sequence[str]) -> list[Lineage]:
        if ids is None:
            return [c for c in self._by_id.values() if c.parent == parent and not c.collected]
        targets: list[Lineage] = []
        for named in ids:
            if named in pending:
                raise OperationError(
                    "wait_for_subagents",
                    ErrorCode.INVALID_ARGUMENT,
                    f"`{named}` is a fork declared this turn; it starts when the turn ends, so wait for it "
                    "on a later turn",
                )
            targets.append(self._child(parent, named, "wait_for_subagents"))
        return targets

    def _child(self, parent: str, named: str, operation: str) -> Lineage:
        found = self._by_id.get(self._incarnations.get(named, ""))
        if found is None or found.parent != parent:
            children = [f"`{c.id}`" for c in self._by_id.values() if c.parent == parent]
            listed = f"its children are {', '.join(children)}" if children else "it has no children"
            raise OperationError(
                operation, ErrorCode.NOT_FOUND, f"`{named[:80]}` is not a child of this agent; {listed}"
            )
        return found

    def _check_still_waiting(
        self, targets: list[Lineage], deadline: float | None, clock: Callable[[], float]
    ) -> None:
        waiting = ", ".join(f"`{t.id}`" for t in targets if t.result is None)
        if self._halted:
            raise OperationError(
                "wait_for_subagents", ErrorCode.LIMIT_EXCEEDED, f"the run is ending; {waiting} did not end"
            )
        if is_spent(deadline, clock()):
            raise OperationError(
                "wait_for_subagents",
                ErrorCode.LIMIT_EXCEEDED,
                f"the run's time ran out while waiting; {waiting} had not ended",
            )
