"""A playback's verdict: what a replayed run did, held against the record it was played from.

Rules:
- Each run is read, per agent and in its order, as steps: each model request (its fingerprint,
  `gg.playback.fingerprint`), each program's verdict (`code_execution`, all but its duration),
  each module write (`memory_revision`, `tasks_state`, `archive_state`, `context_managed`), the
  agent's end with its final word (`agent_finished`) and, on the root, the run's end
  (`run_finished`: its status, exit code and final text). Snapshots of what an agent holds
  (`memory_state`, `board_state`, `skills_state`) are reads, not writes, and are not steps.
- Under `shape` every step is compared masked (`masked`), and the messages other agents place on
  their own clock are compared per agent as one list, in the order they arrived, sorted.
- The verdict is `faithful` when every agent of either run took the same steps; otherwise it is
  the first divergence: of each agent's first differing step, the one that comes first in the
  record (a step only the replay took comes after every recorded one). It names the agent, the
  turn, what the step was, where in it the two differ, what the record says and what the replay
  did.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gg.playback.fingerprint import Fingerprint, arrivals, masked, request_print, untimed
from gg.telemetry.events import EventType
from gg.wire import escaped

MODULE_WRITES = frozenset(
    kind.value
    for kind in (
        EventType.MEMORY_REVISION,
        EventType.TASKS_STATE,
        EventType.ARCHIVE_STATE,
        EventType.CONTEXT_MANAGED,
    )
)
_WHAT: dict[str, str] = {
    EventType.MODEL_REQUEST.value: "model request",
    EventType.CODE_EXECUTION.value: "program verdict",
    EventType.AGENT_FINISHED.value: "agent's end",
    EventType.RUN_FINISHED.value: "run's end",
    **{kind: f"module write ({kind})" for kind in MODULE_WRITES},
}
_RUN_END = ("status", "exitCode", "finalText")
SHOWN_CHARS = 160
_NOTHING = "nothing (no such step)"


@dataclass(frozen=True)
class PlayedStep:
    what: str
    turn: int
    value: Any
    order: int  # where it stands in its run's records


@dataclass(frozen=True)
class Divergence:
    agent: str
    turn: int
    what: str
    where: str  # the path inside the step where the two first differ ("" for the whole step)
    recorded: str
    replayed: str
    order: int


@dataclass(frozen=True)
class Verdict:
    fingerprint: Fingerprint
    agents: int
    steps: int
    divergence: Divergence | None

    @property
    def faithful(self) -> bool:
        return self.divergence is None

    def said(self) -> str:
        """The one line a playback ends with."""
        d = self.divergence
        if d is None:
            return (
                f"faithful (fingerprint {self.fingerprint}): {self.steps} steps of "
                f"{self.agents} agent{'s' if self.agents != 1 else ''} played as recorded"
            )
        at = f" at {d.where}" if d.where else ""
        return (
            f"diverged (fingerprint {self.fingerprint}): agent {d.agent}, turn {d.turn}, "
            f"{d.what}{at}: the record says {d.recorded}; the replay did {d.replayed}"
        )


def verdict_of(
    recorded: Iterable[Mapping[str, Any]], replayed: Iterable[Mapping[str, Any]], mode: Fingerprint
) -> Verdict:
    """Hold the replayed run's records against the recorded run's (see the module rules)."""
    ours, theirs = steps_of(recorded, mode), steps_of(replayed, mode)
    agents = list(dict.fromkeys([*ours, *theirs]))
    beyond = sum(len(s) for s in ours.values()) + 1
    found = [d for a in agents if (d := _first(a, ours.get(a, []), theirs.get(a, []), beyond))]
    first = min(found, key=lambda d: d.order) if found else None
    return Verdict(mode, len(agents), sum(len(s) for s in ours.values()), first)


def steps_of(records: Iterable[Mapping[str, Any]], mode: Fingerprint) -> dict[str, list[PlayedStep]]:
    """Each agent's steps, in the order its records stand (see the module rules)."""
    steps: dict[str, list[PlayedStep]] = {}
    arrived: dict[str, list[str]] = {}
    last: dict[str, tuple[int, int]] = {}
    for order, record in enumerate(records):
        agent, turn = str(record.get("agentId", "")), _turn(record)
        if mode is Fingerprint.SHAPE and record.get("type") == EventType.MODEL_REQUEST:
            arrived.setdefault(agent, []).extend(arrivals(dict(record)))
        value = _value(record, mode)
        if value is not None:
            steps.setdefault(agent, []).append(PlayedStep(_WHAT[str(record["type"])], turn, value, order))
            last[agent] = (turn, order)
    for agent, texts in ((a, t) for a, t in arrived.items() if t):
        turn, order = last.get(agent, (0, 0))
        steps.setdefault(agent, []).append(
            PlayedStep("arrivals from other agents", turn, sorted(texts), order)
        )
    return steps


def _value(record: Mapping[str, Any], mode: Fingerprint) -> Any:
    """What of one record a step compares; None for a record that is no step."""
    kind = record.get("type")
    if kind == EventType.MODEL_REQUEST:
        return request_print(dict(record), mode)
    if kind == EventType.RUN_FINISHED:
        value: Any = {k: record.get(k) for k in _RUN_END}
    elif kind == EventType.CODE_EXECUTION or kind == EventType.AGENT_FINISHED or kind in MODULE_WRITES:
        value = untimed(dict(record))
    else:
        return None
    return masked(value) if mode is Fingerprint.SHAPE else value


def _first(agent: str, ours: list[PlayedStep], theirs: list[PlayedStep], beyond: int) -> Divergence | None:
    """The agent's first step the replay did otherwise than the record, if any."""
    for index, step in enumerate(ours):
        if index >= len(theirs):
            return Divergence(agent, step.turn, step.what, "", _shown(step.value), _NOTHING, step.order)
        other = theirs[index]
        if step.what != other.what:
            return Divergence(agent, step.turn, step.what, "", step.what, other.what, step.order)
        if step.value != other.value:
            where, a, b = first_difference(step.value, other.value)
            start = _first_difference(a, b)
            return Divergence(
                agent, step.turn, step.what, where, _shown(a, start), _shown(b, start), step.order
            )
    if len(theirs) > len(ours):
        extra = theirs[len(ours)]
        return Divergence(
            agent, extra.turn, extra.what, "", _NOTHING, _shown(extra.value), beyond + extra.order
        )
    return None


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any]:
    """Where two values first differ (a key path, `messages[2].content`), and each value there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            if a.get(key) != b.get(key):  # pyright: ignore[reportUnknownMemberType]
                return first_difference(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):  # pyright: ignore[reportUnknownArgumentType]
        for index, (x, y) in enumerate(zip(a, b, strict=True)):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            if x != y:
                return first_difference(x, y, f"{path}[{index}]")
    return path, a, b


def _shown(value: Any, start: int = 0) -> str:
    """A value as the verdict line shows it: JSON-ish, escaped, at most `SHOWN_CHARS` characters;
    a long one from a little before `start` (where two texts first differ), so the excerpts of a
    record and its replay show what differs."""
    text = escaped(repr(value) if not isinstance(value, str) else f'"{value}"')
    if len(text) <= SHOWN_CHARS:
        return text
    begin = max(0, min(start - SHOWN_CHARS // 4, len(text) - SHOWN_CHARS))
    lead = f"…(from character {begin + 1}) " if begin else ""
    tail = "…" if begin + SHOWN_CHARS < len(text) else ""
    return f"{lead}{text[begin : begin + SHOWN_CHARS]}{tail} ({len(text)} characters)"


def _first_difference(a: Any, b: Any) -> int:
    """Where the texts of `a` and `b` as `_shown` writes them first differ (0 for other values)."""
    if not (isinstance(a, str) and isinstance(b, str)):
        return 0
    left, right = escaped(f'"{a}"'), escaped(f'"{b}"')
    return next(
        (i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y), min(len(left), len(right))
    )


def _turn(record: Mapping[str, Any]) -> int:
    turn = record.get("turn")
    return turn if isinstance(turn, int) else 0
