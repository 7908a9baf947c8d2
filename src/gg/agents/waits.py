"""Who waits on what in a run, and the waits that could never end: the run's wait graph.

Its nodes are agents (each named by its lineage's id) and board issues. An edge says what a node
cannot move on without:
- an agent on the board issue it waits on (`waitForIssue`, from the call that declares it to the
  end of the wait after its turn) and on each child it waits on (`waitForSubagents`, for the call);
- an open issue on each issue it is blocked by that is not done;
- an issue being worked on (in progress or in review) on the agent at work on it, while that
  agent runs.

Rules kept here:
- a wait is refused `conflict` when it would close a cycle: something it waits on leads back,
  edge by edge, to the waiter itself, so nothing could ever end the wait. The refusal names each
  step of the cycle (`wait-cycle`); nothing is recorded for a refused wait;
- the check and the record of a wait are one step under one lock, so two agents declaring the two
  halves of a cycle at once see each other: the second is refused;
- `cycle_of` is the pure decider; `Waits` keeps who waits on what and asks the run's issue desk
  for the board's edges (`issue_edges`, none in a run without a board).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gg import prompts
from gg.errors import ErrorCode, OperationError

AGENT, ISSUE = "agent", "issue"


@dataclass(frozen=True)
class Node:
    """An agent (by its lineage's id) or a board issue (by its id)."""

    kind: str
    id: str


Edges = Mapping[Node, Sequence[Node]]


def agent_node(lineage: str) -> Node:
    return Node(AGENT, lineage)


def issue_node(issue_id: str) -> Node:
    return Node(ISSUE, issue_id)


def cycle_of(edges: Edges, waiter: Node, targets: Sequence[Node]) -> tuple[Node, ...] | None:
    """The cycle a wait of `waiter` on `targets` would close, as the path from the waiter through
    one of its targets back to it; None when every target can end without the waiter."""
    came_from: dict[Node, Node] = {}
    pending: list[Node] = []
    for target in targets:
        if target not in came_from:
            came_from[target] = waiter
            pending.append(target)
    while pending:
        node = pending.pop()
        if node == waiter:
            return _path(came_from, waiter)
        for following in edges.get(node, ()):
            if following not in came_from:
                came_from[following] = node
                pending.append(following)
    return None


def _path(came_from: Mapping[Node, Node], waiter: Node) -> tuple[Node, ...]:
    path = [waiter]
    node = came_from[waiter]
    while node != waiter:
        path.append(node)
        node = came_from[node]
    path.append(waiter)
    return tuple(reversed(path))


def refusal(operation: str, target: Node, cycle: Sequence[Node]) -> OperationError:
    """The `conflict` a wait on `target` closing `cycle` is refused with."""
    steps = [
        {"kind": f"{source.kind}-{following.kind}", "source": source.id, "target": following.id}
        for source, following in itertools.pairwise(cycle)
    ]
    blocked = cycle[0].kind == ISSUE
    text = prompts.render("wait-cycle", blocked=blocked, target=target.id, waiter=cycle[0].id, steps=steps)
    return OperationError(operation, ErrorCode.CONFLICT, text)


class Waits:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, list[Node]] = {}  # each waiting agent's lineage -> what it waits on
        self.issue_edges: Callable[[], Edges] = dict  # the board's edges, as the issue desk sees them

    def declare(self, operation: str, waiter: str, targets: Sequence[Node]) -> None:
        """Record that agent `waiter` waits on `targets`; raises `ApiError` (`conflict`, naming the
        cycle) and records nothing when the wait could never end."""
        with self._lock:
            edges = self._edges()
            for target in targets:
                cycle = cycle_of(edges, agent_node(waiter), [target])
                if cycle is not None:
                    raise refusal(operation, target, cycle)
            held = self._held.setdefault(waiter, [])
            held.extend(target for target in targets if target not in held)

    def check_blockers(self, operation: str, blocked: str, blockers: Sequence[str]) -> None:
        """Raises `ApiError` (`conflict`) when blocking issue `blocked` on `blockers` would close a
        cycle through the waits now held."""
        with self._lock:
            cycle = cycle_of(self._edges(), issue_node(blocked), [issue_node(b) for b in blockers])
            if cycle is not None:
                raise refusal(operation, cycle[1], cycle)

    def clear(self, waiter: str, targets: Sequence[Node] | None = None) -> None:
        """Agent `waiter` no longer waits on `targets` (on anything, when None)."""
        with self._lock:
            held = self._held.get(waiter, [])
            kept = [] if targets is None else [node for node in held if node not in targets]
            if kept:
                self._held[waiter] = kept
            else:
                self._held.pop(waiter, None)

    def _edges(self) -> dict[Node, list[Node]]:
        edges: dict[Node, list[Node]] = {agent_node(w): list(on) for w, on in self._held.items()}
        for node, following in self.issue_edges().items():
            edges.setdefault(node, []).extend(following)
        return edges
