"""The blocked-by rule the task list and the board share: a node names the nodes that must be done
before it, and the relation stays acyclic.

- A blocker list is read in order, each id once (a repeat is dropped). An entry that is not an id
  (`gg.state.items.checked_id`) is `invalid-argument`, the node itself is `conflict`, and an id the
  graph does not hold is `not-found`.
- A list that would close a cycle (`a` blocked by `c` while `c` already waits on `a`, directly or
  through others) is `conflict`, naming the blocker that already waits on the node.
- Nothing here mutates: a caller applies a list only once it has passed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gg.errors import ErrorCode
from gg.state.items import checked_id
from gg.state.refusal import Refusal, Wording, worded

Graph = Mapping[str, Sequence[str]]  # each node's id -> the ids it is blocked by


def checked_blockers(subject: str, blockers: Iterable[str], graph: Graph, noun: str) -> tuple[str, ...]:
    """`blockers` as `subject` may hold them in `graph`; `noun` names the nodes (`task`, `issue`).
    Raises `Refusal`."""
    kept: list[str] = []
    for blocker in blockers:
        checked_id(blocker, "blocked_by")
        if blocker == subject:
            raise Refusal(ErrorCode.CONFLICT, worded("dag-self", noun=noun, subject=subject))
        if blocker not in graph:
            raise Refusal(ErrorCode.NOT_FOUND, unknown(blocker, "blocked_by", noun))
        if blocker not in kept:
            kept.append(blocker)
    for blocker in kept:
        if waits_on(graph, blocker, subject):
            raise Refusal(ErrorCode.CONFLICT, worded("dag-cycle", subject=subject, blocker=blocker))
    return tuple(kept)


def unknown(identifier: str, field: str, noun: str) -> Wording:
    """`field` (the argument, snake_case) names `identifier`, which no `noun` holds."""
    return worded("item-unknown", {"field": field}, id=identifier, noun=noun)


def waits_on(graph: Graph, node: str, target: str) -> bool:
    """Whether `node` is blocked by `target`, directly or through other nodes."""
    stack, seen = list(graph.get(node, ())), set[str]()
    while stack:
        current = stack.pop()
        if current == target:
            return True
        if current not in seen:
            seen.add(current)
            stack.extend(graph.get(current, ()))
    return False
