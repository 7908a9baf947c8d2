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

Each message carries a mark (`Mark`): the turn it was pushed in (`begin_turn`; 0 before the
first) and its band: the brief, the thread (replies, receipts, feedback, a compaction's summary),
a view (`push_view`: text, file and search views, selected as `gg.state.window.views` selects them), a
documentation view, or a pinned block. A pinned band (`pin`: the task list's, the skills read in
the window) holds one current message per key (a band with one block pins under no key; the skill
band under each skill's name): a changed block is pushed at the tail and the one it supersedes
becomes ordinary thread; a block identical to the current one pins nothing. The current pins
cross a compaction verbatim, after the restarted thread, and cross a fork or a succession with
the rest.

The window knows its size as it changes (`band_sizes`): each band's characters, a message's
content and its calls' arguments as JSON (`message_chars`), added as each message is pushed; and
where each band's current block stands. Neither is measured again from the whole window but when
messages leave it (a removal, a compaction), so a turn's bookkeeping costs the same however long
the session.

The window's list of messages is only ever appended to: whatever makes messages leave (a
removal, a compaction, a restart) gives the window a new list. So a request reads the list as it
stood when the request was made (`SentMessages`), with no copy of the whole window per turn.

What may leave the window by request (`remove_turns`, `remove_views`): whole turns but the turn in
progress, without the brief, the current pins or any documentation view; views, by selector,
except documentation views. Whatever leaves, the next request records the whole thread again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from gg.providers.base import Message, ToolCall
from gg.state.window.views import DocsView, FileView, Region, View, ViewKind
from gg.wire import well_formed, well_formed_value


class Band(StrEnum):
    """Where a message of the window came from."""

    BRIEF = "brief"
    THREAD = "thread"
    VIEW = "view"
    DOCS = "docs"
    TASKS = "tasks"
    SKILL = "skill"
    MEMORY = "memory"


@dataclass(frozen=True)
class ViewMark:
    """A view message's kind, selector and (a file view's) region."""

    kind: ViewKind
    selector: str
    region: Region | None = None


@dataclass(frozen=True)
class Mark:
    turn: int
    band: Band
    pinned: bool = False  # the band's current block under `key`
    view: ViewMark | None = None
    key: str | None = None  # which of a band's blocks a pinned message is


Held = tuple[Mark, Message]


@dataclass
class Window:
    """`task` is the message the agent was briefed with; a compaction keeps it. `system` is the
    system-prompt slot, None while it is empty. `turn` is the turn messages are pushed in."""

    system: str | None
    messages: list[Message] = field(default_factory=list[Message])
    task: Message | None = None
    _recorded: int = 0
    turn: int = 0
    _marks: list[Mark] = field(default_factory=list[Mark], init=False, repr=False)
    _sizes: dict[Band, int] = field(default_factory=dict[Band, int], init=False, repr=False, compare=False)
    _current: dict[tuple[Band, str | None], int] = field(
        default_factory=dict[tuple[Band, str | None], int], init=False, repr=False, compare=False
    )  # where each band's current block under each key stands

    def __post_init__(self) -> None:
        self.messages = [well_formed_message(m) for m in self.messages]
        self._marks = self._thread_marks(self.messages)
        self._reindex()

    def __setattr__(self, name: str, value: object) -> None:
        """The system-prompt slot is a door too, however it is filled."""
        if name == "system" and isinstance(value, str):
            value = well_formed(value)
        super().__setattr__(name, value)

    @property
    def marks(self) -> tuple[Mark, ...]:
        """Each message's mark, in the messages' order."""
        return tuple(self._marks)

    def begin_turn(self, turn: int) -> None:
        """Messages pushed from now on belong to turn `turn`."""
        self.turn = turn

    def brief(self, task: Message) -> None:
        self.task = well_formed_message(task)
        self.push(self.task, Band.BRIEF)

    def push(self, message: Message, band: Band = Band.THREAD) -> None:
        self._append(message, Mark(self.turn, band))

    def push_view(self, view: View) -> None:
        """A view as the model reads it, marked with what it shows."""
        band = Band.DOCS if isinstance(view, DocsView) else Band.VIEW
        region = view.region if isinstance(view, FileView) else None
        mark = Mark(self.turn, band, view=ViewMark(view.kind, view.selector, region))
        self._append(Message(role="user", content=view.render()), mark)

    def pin(self, band: Band, text: str | None, key: str | None = None) -> bool:
        """Make `text` the band's current block under `key`; True when that pushed a message.
        None, or the text already pinned there, pushes nothing."""
        if text is None or text == self.pinned(band, key):
            return False
        current = self._current.pop((band, key), None)
        if current is not None:
            self._marks[current] = replace(self._marks[current], pinned=False)
        self._append(Message(role="user", content=text), Mark(self.turn, band, pinned=True, key=key))
        return True

    def repin(self, band: Band, text: str | None) -> None:
        """Rebuild the band's block: the current one leaves the window, and `text` (None: nothing)
        is pinned in its place."""
        self._remove(lambda mark: mark.band is band and mark.pinned)
        self.pin(band, text)

    def pinned(self, band: Band, key: str | None = None) -> str | None:
        """The band's current block under `key`, or None."""
        current = self._current.get((band, key))
        return None if current is None else self.messages[current].content

    def band_sizes(self) -> dict[Band, int]:
        """The characters each band holds (`message_chars`), in `Band` order."""
        return dict(self._sizes)

    def restart(self, messages: list[Message]) -> None:
        """Replace the thread (a compaction); the current pins follow it verbatim, and the next
        request records the whole new thread."""
        pins = [(mark, message) for mark, message in self.held() if mark.pinned]
        self.messages = [well_formed_message(m) for m in messages]
        self._marks = self._thread_marks(self.messages)
        self._reindex()
        for mark, message in pins:
            self._append(message, replace(mark, turn=self.turn))
        self._recorded = 0

    def held(self) -> list[Held]:
        """Every message with its mark, in order."""
        return list(zip(self._marks, self.messages, strict=True))

    def in_turns(self, first: int, last: int) -> list[Held]:
        """The messages of turns `first` to `last`, inclusive, with their marks, in order."""
        return [(mark, message) for mark, message in self.held() if first <= mark.turn <= last]

    def remove_turns(self, chosen: Callable[[int], bool]) -> list[Held]:
        """Take the messages of the turns `chosen` picks out of the window, in order, except the
        turn in progress, the brief, the current pins and the documentation views; returns what
        was taken."""
        return self._remove(lambda mark: mark.turn != self.turn and chosen(mark.turn) and _removable(mark))

    def remove_views(self, chosen: Callable[[ViewMark], bool]) -> list[Held]:
        """Take out the view messages `chosen` picks; documentation views never leave."""
        return self._remove(
            lambda mark: mark.band is Band.VIEW and mark.view is not None and chosen(mark.view)
        )

    def fork(self) -> Window:
        """An independent copy for a new holder: the thread, its marks and the task, the slot empty."""
        copy = Window(system=None, messages=list(self.messages), task=self.task, turn=self.turn)
        copy._marks = list(self._marks)
        copy._reindex()
        return copy

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

    def _append(self, message: Message, mark: Mark) -> None:
        held = well_formed_message(message)
        if mark.pinned:
            self._current[(mark.band, mark.key)] = len(self.messages)
        self.messages.append(held)
        self._marks.append(mark)
        self._sizes[mark.band] += message_chars(held)

    def _reindex(self) -> None:
        """Measure the window whole: each band's size, and where each current block stands."""
        self._sizes = dict.fromkeys(Band, 0)
        self._current = {}
        for at, (mark, message) in enumerate(self.held()):
            self._sizes[mark.band] += message_chars(message)
            if mark.pinned:
                self._current[(mark.band, mark.key)] = at

    def _remove(self, taken: Callable[[Mark], bool]) -> list[Held]:
        gone = [(mark, message) for mark, message in self.held() if taken(mark)]
        if gone:
            kept = [(mark, message) for mark, message in self.held() if not taken(mark)]
            self._marks = [mark for mark, _ in kept]
            self.messages = [message for _, message in kept]
            self._recorded = 0
            self._reindex()
        return gone

    def _thread_marks(self, messages: list[Message]) -> list[Mark]:
        """Marks for a thread set whole: the first copy of the task is the brief, the rest thread."""
        marks: list[Mark] = []
        briefed = False
        for message in messages:
            brief = not briefed and self.task is not None and message == self.task
            briefed = briefed or brief
            marks.append(Mark(self.turn, Band.BRIEF if brief else Band.THREAD))
        return marks


def message_chars(message: Message) -> int:
    """A message's size: its content's characters and its calls' arguments' as JSON."""
    return len(message.content) + sum(len(_json(call.arguments)) for call in message.tool_calls)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _removable(mark: Mark) -> bool:
    return mark.band not in (Band.BRIEF, Band.DOCS) and not mark.pinned


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
    return replace(call, id=call_id, name=name, arguments=arguments)
