"""The agent's conversation window (the `history` module): every message, in order.

The system prompt sits in its own slot and renders first on every request; the thread holds the
task, each reply's assistant message, one receipt per call, the views and the feedback. The window
also remembers how much of it has already been put on the record, so each `model_request` event
carries exactly the messages appended since the previous one.

A window is never shared. A fork copies it and a successor takes it over on the same terms (seed
003, "Transfer"): the whole thread and the task cross, the system-prompt slot crosses empty (a
system prompt states the toolset of the agent it was rendered for; the new holder renders its own
before its first turn), and nothing of it is on the new holder's record yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gg.providers.base import Message


@dataclass
class Window:
    """`task` is the message the agent was briefed with; a compaction keeps it. `system` is the
    system-prompt slot, None while it is empty."""

    system: str | None
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

    def fork(self) -> Window:
        """An independent copy for a new holder: the thread and the task, the slot empty."""
        return Window(system=None, messages=list(self.messages), task=self.task)

    def adopt(self) -> Window:
        """The window as a successor takes it over: the same as a fork."""
        return self.fork()

    def take_unrecorded(self) -> list[Message]:
        """The messages appended since the last call, marking them recorded."""
        fresh = self.messages[self._recorded :]
        self._recorded = len(self.messages)
        return fresh

    def ends_on_the_model(self) -> bool:
        """True when nothing has been pushed after the model's own reply and its receipts."""
        return bool(self.messages) and self.messages[-1].role in ("assistant", "tool")
