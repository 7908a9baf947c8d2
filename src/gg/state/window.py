"""The agent's conversation window (the `history` module): every message, in order.

The system prompt sits in its own slot and renders first on every request; the thread holds the
task, each reply's assistant message, one receipt per call, the views and the feedback. The window
also remembers how much of it has already been put on the record, so each `model_request` event
carries exactly the messages appended since the previous one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gg.providers.base import Message


@dataclass
class Window:
    """`task` is the message the agent was briefed with; a compaction keeps it."""

    system: str
    messages: list[Message] = field(default_factory=list[Message])
    task: Message | None = None
    _recorded: int = 0

    def brief(self, task: Message) -> None:
        self.task = task
        self.push(task)

    def push(self, message: Message) -> None:
        self.messages.append(message)

    def restart(self, messages: list[Message]) -> None:
        """Replace the thread (a compaction); the next request records the whole new thread."""
        self.messages = list(messages)
        self._recorded = 0

    def take_unrecorded(self) -> list[Message]:
        """The messages appended since the last call, marking them recorded."""
        fresh = self.messages[self._recorded :]
        self._recorded = len(self.messages)
        return fresh

    def ends_on_the_model(self) -> bool:
        """True when nothing has been pushed after the model's own reply and its receipts."""
        return bool(self.messages) and self.messages[-1].role in ("assistant", "tool")
