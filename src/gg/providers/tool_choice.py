"""The pinned tool choice, and falling back to `auto` when a provider refuses it (seed 001).

Every request pins the tool choice to `submit_program`. A provider that refuses the pin answers
400 with `tool_choice` in its body; the identical request is then sent again at once on `auto`,
outside the retry schedule. The refusal is remembered in the run's one `ToolChoiceMemory`,
shared by every client of the run and keyed by model id, so every later request for that model
starts on `auto` while other models still pin. The downgrade is one `warn` per model per run,
naming the model and the provider's message. A request already on `auto` gets no second chance.
A client that sends a tool choice says which its next request starts on (`tool_choice_of`); a
replayed or scripted model sends none.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import StrEnum
from typing import Protocol, TypeVar, runtime_checkable

from gg.providers.base import LogFn
from gg.providers.failures import FailedAttempt
from gg.telemetry.events import LogLevel

T = TypeVar("T")


class ToolChoice(StrEnum):
    PINNED = "pinned"
    AUTO = "auto"


class ToolChoiceMemory:
    """The run's record of which models refused a pinned tool choice. Thread-safe: agents of
    one run take their turns on their own threads."""

    def __init__(self) -> None:
        self._refused: set[str] = set()
        self._lock = threading.Lock()

    def choice_for(self, model_id: str) -> ToolChoice:
        with self._lock:
            return ToolChoice.AUTO if model_id in self._refused else ToolChoice.PINNED

    def record_refusal(self, model_id: str) -> bool:
        """Remember the refusal; True only the first time this model is recorded."""
        with self._lock:
            first = model_id not in self._refused
            self._refused.add(model_id)
            return first


@runtime_checkable
class SendsToolChoice(Protocol):
    def next_tool_choice(self) -> ToolChoice | None:
        """The choice this client's next request starts on; None when it sends none."""
        ...


def tool_choice_of(client: object) -> ToolChoice | None:
    """The choice `client`'s next request starts on; None for a client that sends none."""
    return client.next_tool_choice() if isinstance(client, SendsToolChoice) else None


def send_with_fallback(
    model_id: str,
    send: Callable[[ToolChoice], T | FailedAttempt],
    memory: ToolChoiceMemory,
    log: LogFn,
) -> T | FailedAttempt:
    """Send on the model's current choice; a refused pin is re-sent once, at once, on `auto`."""
    choice = memory.choice_for(model_id)
    result = send(choice)
    if choice is ToolChoice.AUTO or not isinstance(result, FailedAttempt) or not result.names_tool_choice():
        return result
    if memory.record_refusal(model_id):
        log(
            LogLevel.WARN.value,
            f"{model_id} refused the pinned tool choice; its requests go on auto for the rest of "
            f"the run ({result.message})",
            {"model": model_id, "providerMessage": result.message},
        )
    return send(ToolChoice.AUTO)
