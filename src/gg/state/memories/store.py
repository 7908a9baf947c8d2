"""A memory store: its memories, revision log, peaks, strategy, caps and registered holders.

- Memories are kept in slug order. Every mutation is checked first (`checks`) and refused whole
  (`MemoryRefusal`), recording nothing; a success appends one revision tagged with its author,
  raises the peaks (count, characters, lines held at once) and answers with the store's usage.
- Revision numbers are per slug and monotonic: write 1, update 2, delete 3, write again 4.
- Holders register their watermarks (`Cursors`); the log forgets what every live holder has read
  past. A store no holder is registered with forgets nothing.
- `copy` is a fork's store: the memories, revision numbers, peaks, strategy and caps, with a log
  that starts at the original's head and no holders.
- One lock guards a store; every holder of it may be on its own thread.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gg.config.memories.caps import Caps
from gg.config.memories.strategy import Strategy
from gg.errors import ErrorCode
from gg.state.memories import checks
from gg.state.memories.checks import MemoryRefusal, required, shown
from gg.state.memories.index import index_after_adding, index_text
from gg.state.memories.log import RevisionLog
from gg.state.memories.memory import Change, Memory, Revision
from gg.state.memories.search import Hit, normalized, rank
from gg.state.refusal import Wording


@dataclass(frozen=True)
class Draft:
    """A memory as a write, update or create call gives it (unchecked, untrimmed)."""

    name: str | None
    description: str | None = None
    body: str | None = None
    code: str | None = None
    on_use: str | None = None


@dataclass(frozen=True)
class Peak:
    count: int = 0
    total_len: int = 0
    total_lines: int = 0


@dataclass(eq=False)
class Cursors:
    """One holder's watermarks: how far it has reported (`telemetry`) and been told (`notice`)."""

    telemetry: int = 0
    notice: int = 0


class MemoryStore:
    def __init__(self, strategy: Strategy, caps: Caps) -> None:
        self.strategy = strategy
        self.lock = threading.RLock()
        self._caps = caps
        self._memories: dict[str, Memory] = {}
        self._revisions: dict[str, int] = {}
        self._log = RevisionLog()
        self._peak = Peak()
        self._holders: weakref.WeakSet[Cursors] = weakref.WeakSet()

    @property
    def caps(self) -> Caps:
        return self._caps

    @property
    def memories(self) -> list[Memory]:
        with self.lock:
            return [self._memories[name] for name in sorted(self._memories)]

    @property
    def total_len(self) -> int:
        return sum(memory.length for memory in self._memories.values())

    @property
    def total_lines(self) -> int:
        return sum(memory.lines for memory in self._memories.values())

    @property
    def peak(self) -> Peak:
        return self._peak

    @property
    def head(self) -> int:
        return self._log.head

    @property
    def retained_revisions(self) -> int:
        """How many log entries it still keeps (some live holder has not read past them)."""
        with self.lock:
            return self._log.retained

    def index(self) -> str:
        return index_text(self.memories)

    def log_since(self, position: int) -> tuple[Revision, ...]:
        with self.lock:
            return self._log.since(position)

    def usage(self) -> dict[str, Any]:
        """What every mutation answers (`MemoryUsage`): the figures and the caps bounding them."""
        with self.lock:
            caps, usage = self._caps, {"count": len(self._memories), "totalChars": self.total_len}
            if caps.max_count is not None:
                usage["maxCount"] = caps.max_count
            if caps.max_total_len is not None:
                usage["maxTotalChars"] = caps.max_total_len
            if self.strategy.has_index:
                usage["indexChars"] = len(self.index())
            if caps.max_len_index is not None:
                usage["maxIndexChars"] = caps.max_len_index
            return usage

    # holders

    def register(self, cursors: Cursors) -> None:
        with self.lock:
            self._holders.add(cursors)

    def release(self, cursors: Cursors) -> None:
        with self.lock:
            self._holders.discard(cursors)
            self.forget_read()

    @property
    def holders(self) -> int:
        """How many holders are registered (live) with this store."""
        with self.lock:
            return len(self._holders)

    def holders_besides(self, cursors: Cursors) -> int:
        with self.lock:
            return sum(1 for held in self._holders if held is not cursors)

    def repoint(self, caps: Caps) -> None:
        """Bound the store by `caps` from now on; contents already over them are kept."""
        with self.lock:
            self._caps = caps

    def copy(self) -> MemoryStore:
        with self.lock:
            twin = MemoryStore(self.strategy, self._caps)
            twin._memories = dict(self._memories)
            twin._revisions = dict(self._revisions)
            twin._peak = self._peak
            twin._log = self._log.at_head()
            return twin

    # reads

    def read(self, name: str | None) -> Memory:
        with self.lock:
            return self._existing(required("name", name))

    def search(self, keywords: Sequence[str]) -> list[Hit]:
        with self.lock:
            return rank(self.memories, normalized(keywords), self._caps.max_results)

    # mutations

    def write(self, author: str, draft: Draft) -> dict[str, Any]:
        """A new memory (scratchpad): name, description and body all required."""
        with self.lock:
            memory = self._new(draft, description_required=True)
            self._check_room(memory)
            checks.check_total(self._caps, self.total_len + memory.length)
            return self._put(author, memory, Change.WRITTEN)

    def create(self, author: str, draft: Draft) -> dict[str, Any]:
        """A new memory (markdown, keyword-search): a description is required where there is an index."""
        with self.lock:
            memory = self._new(draft, description_required=self.strategy.has_index)
            self._check_room(memory)
            checks.check_total(self._caps, self.total_len + memory.length)
            checks.check_index(self._caps, index_after_adding(self.index(), memory.name, memory.description))
            return self._put(author, memory, Change.WRITTEN)

    def update(self, author: str, draft: Draft) -> dict[str, Any]:
        """Replace a memory whole (scratchpad): a code half left out is cleared."""
        with self.lock:
            name, description, body = (
                required("name", draft.name),
                required("description", draft.description),
                required("body", draft.body),
            )
            old = self._existing(name)
            memory = _with_code(Memory(old.name, description, body), draft)
            checks.check_description(self._caps, name, description)
            checks.check_body(self._caps, name, memory.length)
            checks.check_total(self._caps, self.total_len - old.length + memory.length)
            return self._put(author, memory, Change.UPDATED)

    def edit(self, author: str, name: str | None, search: str, replace: str) -> dict[str, Any]:
        """Replace the one occurrence of `search` in a memory's body (markdown, keyword-search)."""
        with self.lock:
            old = self._existing(required("name", name))
            body = _edited(old, search, replace)
            checks.check_body(self._caps, old.name, len(body))
            checks.check_total(self._caps, self.total_len - old.length + len(body))
            memory = Memory(old.name, old.description, body, old.code, old.on_use)
            return self._put(author, memory, Change.UPDATED)

    def delete(self, author: str, name: str | None) -> dict[str, Any]:
        with self.lock:
            old = self._existing(required("name", name))
            del self._memories[old.name]
            self._record(author, old.name, Change.DELETED, None)
            return self.usage()

    # the rules the mutations share

    def _new(self, draft: Draft, description_required: bool) -> Memory:
        name = checks.checked_slug(draft.name)
        description = (
            required("description", draft.description)
            if description_required
            else (draft.description or "").strip()
        )
        body = required("body", draft.body)
        if name in self._memories:
            taken = Wording("memories-taken", {"name": name}, {"revise_call": self.strategy.revises.key})
            raise MemoryRefusal(ErrorCode.CONFLICT, taken)
        return _with_code(Memory(name, description, body), draft)

    def _check_room(self, memory: Memory) -> None:
        checks.check_description(self._caps, memory.name, memory.description)
        checks.check_body(self._caps, memory.name, memory.length)
        checks.check_count(self._caps, len(self._memories), self.strategy.revises)

    def _existing(self, name: str) -> Memory:
        memory = self._memories.get(name)
        if memory is None:
            missing = Wording(
                "memories-missing", {"name": shown(name)}, {"create_call": self.strategy.creates.key}
            )
            raise MemoryRefusal(ErrorCode.NOT_FOUND, missing)
        return memory

    def _put(self, author: str, memory: Memory, change: Change) -> dict[str, Any]:
        self._memories[memory.name] = memory
        self._record(author, memory.name, change, memory)
        return self.usage()

    def _record(self, author: str, name: str, change: Change, memory: Memory | None) -> None:
        number = self._revisions.get(name, 0) + 1
        self._revisions[name] = number
        description, body = ("", "") if memory is None else (memory.description, memory.body)
        self._log.append(Revision(name, number, change, description, body, author))
        self._peak = Peak(
            max(self._peak.count, len(self._memories)),
            max(self._peak.total_len, self.total_len),
            max(self._peak.total_lines, self.total_lines),
        )
        self.forget_read()

    def forget_read(self) -> None:
        """Forget the log entries every live holder has read past."""
        with self.lock:
            live = list(self._holders)
            if live:
                self._log.prune(min(min(c.telemetry, c.notice) for c in live))


def _with_code(memory: Memory, draft: Draft) -> Memory:
    code = checks.code_half(memory.name, "code", draft.code)
    on_use = checks.code_half(memory.name, "on_use", draft.on_use)
    return Memory(memory.name, memory.description, memory.body, code, on_use)


def _edited(memory: Memory, search: str, replace: str) -> str:
    """The body with its one occurrence of `search` replaced; refused when there is not exactly one,
    or when the result would be empty."""
    if not search:
        raise checks.invalid("`search` must not be empty")
    found = memory.body.count(search)
    if found == 0:
        raise MemoryRefusal(ErrorCode.NOT_FOUND, f"the search text does not appear in memory `{memory.name}`")
    if found > 1:
        raise MemoryRefusal(
            ErrorCode.CONFLICT,
            f"the search text appears {found} times in memory `{memory.name}`; quote more of it",
        )
    body = memory.body.replace(search, replace, 1).strip()
    if not body:
        raise checks.invalid(f"that edit would leave memory `{memory.name}` empty; delete it instead")
    return body
