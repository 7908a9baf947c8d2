"""What a host function answered, and answering again from a recording.

An `HostAnswer` is one call as a recording keeps it: the operation, the arguments the program sent
(wire spelling) and either the value handed back (JSON data) or the error raised (`code`,
`message`). A replay with the function absent gives each agent its recorded answers in order
(`ReplayedAnswers`):
- the next answer must be for the same operation with the same arguments; otherwise the call is
  refused `unavailable`, saying what the recording holds next, and nothing is used up;
- a call past an agent's last recorded answer is refused `unavailable` too.
A value outside the function's declared result (`outside_result`) is answered `other`, saying so,
whether the function returned it live or a recording holds it (`gg.sdk.host.recording`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.errors import ErrorCode, OperationError
from gg.sdk.shape_check import object_of, shown, violation
from gg.sdk.shapes import Shape, py


@dataclass(frozen=True)
class HostAnswer:
    operation: str  # the wire key, `inventory.count`
    arguments: Mapping[str, Any]
    value: Any = None
    error: tuple[ErrorCode, str] | None = None

    def give(self, key: str) -> Any:
        """The value, or the recorded error raised as the operation `key`'s."""
        if self.error is not None:
            raise OperationError(key, self.error[0], self.error[1])
        return self.value

    def to_json(self, agent_id: str) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "agent": agent_id,
            "operation": self.operation,
            "arguments": dict(self.arguments),
        }
        if self.error is None:
            entry["value"] = self.value
        else:
            entry["error"] = {"code": self.error[0].value, "message": self.error[1]}
        return entry


def outside_result(result: Shape, value: Any) -> str | None:
    """Why `value` (JSON data) is no answer of a function declared to return `result`, or None."""
    wrong = violation(result, value)
    if wrong is None:
        return None
    return f"it answered outside its declared result `{py(result)}`: the answer{wrong.where} {wrong.reason}"


def answer_from_json(data: Any) -> tuple[str, HostAnswer]:
    """(agent id, answer) from `HostAnswer.to_json`. Raises `ValueError`."""
    entry = object_of(data)
    if entry is None or not all(isinstance(entry.get(key), str) for key in ("agent", "operation")):
        raise ValueError("a host answer names its `agent` and `operation`")
    arguments = object_of(entry.get("arguments", {}))
    if arguments is None:
        raise ValueError("a host answer's `arguments` must be an object")
    if "error" not in entry:
        return entry["agent"], HostAnswer(entry["operation"], arguments, entry.get("value"))
    error = object_of(entry["error"])
    if error is None or not isinstance(error.get("message"), str):
        raise ValueError("a host answer's `error` holds its `code` and `message`")
    return entry["agent"], HostAnswer(
        entry["operation"], arguments, error=(ErrorCode(error.get("code")), error["message"])
    )


@dataclass
class ReplayedAnswers:
    """Each agent's recorded answers, handed out in order; safe from several agent threads."""

    _queues: dict[str, deque[HostAnswer]] = field(default_factory=dict[str, deque[HostAnswer]])
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def of(cls, recorded: Iterable[tuple[str, HostAnswer]]) -> ReplayedAnswers:
        answers = cls()
        for agent_id, answer in recorded:
            answers._queues.setdefault(agent_id, deque()).append(answer)
        return answers

    def next(self, agent_id: str, key: str, operation: str, arguments: Mapping[str, Any]) -> HostAnswer:
        """The answer recorded for this call. Raises `ApiError(unavailable)` (see the module rules)."""
        with self._lock:
            queue = self._queues.get(agent_id)
            if not queue:
                raise OperationError(key, ErrorCode.UNAVAILABLE, _exhausted(operation))
            recorded = queue[0]
            if recorded.operation != operation or dict(recorded.arguments) != dict(arguments):
                raise OperationError(key, ErrorCode.UNAVAILABLE, _diverged(recorded, operation, arguments))
            return queue.popleft()


def _exhausted(operation: str) -> str:
    return f"this session is replayed from a recording, which holds no answer for this call of `{operation}`"


def _diverged(recorded: HostAnswer, operation: str, arguments: Mapping[str, Any]) -> str:
    held, given = shown(dict(recorded.arguments)), shown(dict(arguments))
    return (
        f"this session is replayed from a recording, whose next answer is for `{recorded.operation}` "
        f"called with {held}, not `{operation}` called with {given}"
    )
