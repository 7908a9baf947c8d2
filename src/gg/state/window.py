"""The agent's conversation window (the `history` module): every message, in order.

The system prompt sits in its own slot and renders first on every request; the thread holds the
task, each reply's assistant message, one receipt per call, the views and the feedback. The window
also remembers how much of it has already been put on the record, so each `model_request` event
carries exactly the messages appended since the previous one.

A window is never shared. A fork copies it and a successor takes it over on the same terms (seed
003, "Transfer"): the whole thread and the task cross, the system-prompt slot crosses empty (a
system prompt states the toolset of the agent it was rendered for; the new holder renders its own
before its first turn), and nothing of it is on the new holder's record yet.

The window is the one door through which text enters what the model reads, so every text is made
well-formed on its way in (`well_formed`): the system prompt, each message's content, and each
call's id, name and arguments. A lone surrogate (a JavaScript string's, a provider's `\\ud83d`
escape, a non-UTF-8 file name) becomes U+FFFD there, and no request can carry one onto a wire.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from gg.providers.base import Message, ToolCall
from gg.wire import well_formed, well_formed_value


@dataclass
class Window:
    """`task` is the message the agent was briefed with; a compaction keeps it. `system` is the
    system-prompt slot, None while it is empty."""

    system: str | None
    messages: list[Message] = field(default_factory=list[Message])
    task: Message | None = None
    _recorded: int = 0

    def __post_init__(self) -> None:
        self.messages = [well_formed_message(m) for m in self.messages]

    def __setattr__(self, name: str, value: object) -> None:
        """The system-prompt slot is a door too, however it is filled."""
        if name == "system" and isinstance(value, str):
            value = well_formed(value)
        super().__setattr__(name, value)

    def brief(self, task: Message) -> None:
        self.task = well_formed_message(task)
        self.push(self.task)

    def push(self, message: Message) -> None:
        self.messages.append(well_formed_message(message))

    def restart(self, messages: list[Message]) -> None:
        """Replace the thread (a compaction); the next request records the whole new thread."""
        self.messages = [well_formed_message(m) for m in messages]
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


def well_formed_message(message: Message) -> Message:
    """`message` with every text in it well-formed; the same object when none needed mending."""
    calls = tuple(_well_formed_call(call) for call in message.tool_calls)
    content = well_formed(message.content)
    call_id = None if message.tool_call_id is None else well_formed(message.tool_call_id)
    if (
        content is message.content
        and call_id is message.tool_call_id
        and all(new is old for new, old in zip(calls, message.tool_calls, strict=True))
    ):
        return message
    return replace(message, content=content, tool_call_id=call_id, tool_calls=calls)


def _well_formed_call(call: ToolCall) -> ToolCall:
    call_id, name, arguments = well_formed(call.id), well_formed(call.name), well_formed_value(call.arguments)
    if call_id is call.id and name is call.name and arguments is call.arguments:
        return call
    return ToolCall(call_id, name, arguments)
