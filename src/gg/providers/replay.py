"""The replay provider, gg's embedded default: it plays a journal (see `journal.py`) back,
one reply per model call, so a run needs no network and no key.

- Call ids are `call_<R>_<C>`: reply R, call C, both from 1.
- Receipts are learned from each request: a `tool` message whose `tool_call_id` is
  `call_<R>_<C>` carries that call's receipt. A request that still holds the last message of the
  one before it, at the same place, is read from where that one ended (a window only appends
  between its cuts, and a cut moves or drops that message); any other is read whole. Before
  reply N is returned, every `{{receipt R.C}}` in its arguments becomes the receipt learned for
  that call.
- The client keeps no request once it has answered it (only how many it has served, and the
  last one's messages, to learn from the next): its memory is the journal and the receipts,
  however long the session.
- A line recording a failed call raises its `ModelError` (usage and cost kept); a reply keeps
  its recorded cost.
- A placeholder whose call has had no receipt yet raises `ReceiptMissing`; a request after the
  last reply raises `JournalExhausted`. Both are `ReplayError`s: the replay no longer matches
  the session, and the run should end saying so rather than count a model error turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gg.outcome import ErrorType
from gg.providers.base import Message, ModelError, Reply, Request, ToolCall
from gg.providers.journal import JournalReply, load_journal
from gg.providers.receipt_placeholders import PLACEHOLDER

REPLAY_MODEL_ID = "replay"
_CALL_ID = re.compile(r"call_(\d+)_(\d+)")


class ReplayError(ModelError):
    """The replayed script and the session have parted ways."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorType.MODEL_REJECTED, message)


class JournalExhausted(ReplayError):
    def __init__(self, replies: int, source: str = "replay journal") -> None:
        super().__init__(f"the {source} ended after {replies} replies; the session had not ended")
        self.replies = replies


class ReceiptMissing(ReplayError):
    pass


def call_id(reply: int, call: int) -> str:
    return f"call_{reply}_{call}"


class ReplayClient:
    def __init__(self, replies: Sequence[JournalReply]) -> None:
        self._replies = tuple(replies)
        self._receipts: dict[tuple[int, int], str] = {}
        self._learned: Sequence[Message] = ()  # the messages of the last request, learned from
        self.served = 0  # requests answered (or refused), the journal's next reply's number less one

    @classmethod
    def open(cls, path: Path) -> ReplayClient:
        """Read and check the whole journal; raises `JournalError` naming every bad line."""
        return cls(load_journal(path))

    @property
    def model_id(self) -> str:
        return REPLAY_MODEL_ID

    def complete(self, request: Request) -> Reply:
        self.served += 1
        self._learn_receipts(request)
        number = self.served
        if number > len(self._replies):
            raise JournalExhausted(len(self._replies))
        entry = self._replies[number - 1]
        if entry.error is not None:
            raise ModelError(
                entry.error.type, entry.error.message, usage=entry.usage, cost_usd=entry.cost_usd
            )
        calls = tuple(
            _call(call_id(number, n), c.name, self._fill(c.arguments, number, entry.line))
            for n, c in enumerate(entry.calls, 1)
        )
        return Reply(
            entry.text,
            calls,
            entry.usage,
            REPLAY_MODEL_ID,
            receipts_hint=entry.receipts,
            cost_usd=entry.cost_usd,
        )

    def _learn_receipts(self, request: Request) -> None:
        messages, learned = request.messages, self._learned
        self._learned = messages
        grew = not learned or (len(messages) >= len(learned) and messages[len(learned) - 1] is learned[-1])
        for message in messages[len(learned) :] if grew else messages:
            match = _CALL_ID.fullmatch(message.tool_call_id or "") if message.role == "tool" else None
            if match:
                self._receipts[(int(match[1]), int(match[2]))] = message.content

    def _fill(self, value: Any, number: int, line: int) -> Any:
        if isinstance(value, str):
            return PLACEHOLDER.sub(lambda m: self._receipt(m, number, line), value)
        if isinstance(value, dict):
            return {k: self._fill(v, number, line) for k, v in value.items()}
        if isinstance(value, list):
            return [self._fill(v, number, line) for v in value]
        return value

    def _receipt(self, match: re.Match[str], number: int, line: int) -> str:
        key = (int(match[1]), int(match[2]))
        if key not in self._receipts:
            raise ReceiptMissing(
                f"reply {number} (journal line {line}) uses `{match[0]}`, but no receipt for "
                f"{call_id(*key)} has been sent to the model yet"
            )
        return self._receipts[key]


def _call(call_id: str, name: str, arguments: str | dict[str, Any]) -> ToolCall:
    """A journal's string of arguments is the text the model sent; its object, a parsed one."""
    return ToolCall(call_id, name, arguments, raw_arguments=arguments if isinstance(arguments, str) else None)
