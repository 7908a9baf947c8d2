"""The thread archive (seed 003, "archive"; capability `agent-managed-context`): whole turns an agent
moves out of its window, kept where `search` finds them again. It puts nothing in any prompt.

- `archive_turns(window, spans)`: `spans` are inclusive `(from, to)` turn numbers, at least one
  and at most `MAX_SPANS`, none reversed (`invalid-argument` otherwise). The turns' messages leave
  the window as `Window.remove_turns` allows (never the turn in progress, the brief, a current pin
  or a documentation view); the model's replies and the receipts answering them are dropped, and
  every other message (the turns' results: views, feedback) becomes an entry.
- An entry is `{seq, source band, role, text}`; `seq` counts from 0 across every archival and a
  copy carries the counter on (`next_seq`), so two copies never both hand out `#5`.
- `search(query)`: entries holding `query`, case-insensitively, newest first, at most `MAX_HITS`;
  a blank query is `invalid-argument`; an archive holding nothing says so (`archiveEmpty`).
- What a reclaim frees is estimated, not measured: `CHARS_PER_TOKEN` characters a token of every
  message that left; the report's detail says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from gg import prompts
from gg.config.kinds import ModuleKind
from gg.errors import ErrorCode
from gg.state.module import Holder, Module
from gg.state.refusal import Refusal, worded
from gg.state.window import Band, FileView, Held, ViewKind, ViewSet, Window
from gg.telemetry.events import Payload
from gg.telemetry.module_events import ArchiveState, ContextAction, ContextManaged

MAX_SPANS = 32
MAX_HITS = 8
CHARS_PER_TOKEN = 4
PREVIEW_CHARS = 200
_DROPPED_ROLES = ("assistant", "tool")

Span = tuple[int, int]  # an inclusive run of turn numbers: (from, to)


@dataclass(frozen=True)
class ArchiveEntry:
    seq: int
    source: Band
    role: str
    text: str

    def hit(self) -> dict[str, Any]:
        return {"seq": self.seq, "role": self.role, "text": self.text}

    def summary(self) -> dict[str, Any]:
        """The entry as `archive_state` lists it."""
        return {
            "seq": self.seq,
            "source": self.source.value,
            "role": self.role,
            "len": len(self.text),
            "preview": self.text[:PREVIEW_CHARS],
        }


@dataclass(frozen=True)
class Archived:
    """What one archival did: the turns asked for, the messages that left the window, the entries
    added, and the characters that left."""

    spans: tuple[Span, ...]
    items: int
    entries: tuple[ArchiveEntry, ...]
    chars: int
    earliest: int | None

    @property
    def reclaimed_tokens(self) -> int:
        return -(-self.chars // CHARS_PER_TOKEN)


class Archive:
    def __init__(self, entries: Sequence[ArchiveEntry] = (), next_seq: int = 0) -> None:
        self.entries: list[ArchiveEntry] = list(entries)
        self.next_seq = next_seq

    def copy(self) -> Archive:
        return Archive(self.entries, self.next_seq)

    def record(self, held: Iterable[Held]) -> tuple[ArchiveEntry, ...]:
        """Keep every result among `held`: each message not the model's reply or a receipt, with
        text in it."""
        added: list[ArchiveEntry] = []
        for mark, message in held:
            if message.role in _DROPPED_ROLES or not message.content.strip():
                continue
            added.append(ArchiveEntry(self.next_seq, mark.band, message.role, message.content))
            self.next_seq += 1
        self.entries.extend(added)
        return tuple(added)

    def search(self, query: str) -> list[ArchiveEntry]:
        """Entries holding `query` (case-insensitive), newest first, at most `MAX_HITS`."""
        if not query.strip():
            raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("archive-query-blank"))
        needle = query.casefold()
        found = [entry for entry in reversed(self.entries) if needle in entry.text.casefold()]
        return found[:MAX_HITS]

    def snapshot(self) -> dict[str, Any]:
        """`archive_state`'s fields beside the module id."""
        return {
            "entries": [entry.summary() for entry in self.entries],
            "count": len(self.entries),
            "total_len": sum(len(entry.text) for entry in self.entries),
        }


def checked_spans(spans: Sequence[Span]) -> tuple[Span, ...]:
    """`spans` as given, once each is known to be a span. Raises `Refusal`."""
    if not spans:
        raise Refusal(ErrorCode.INVALID_ARGUMENT, worded("archive-no-spans"))
    if len(spans) > MAX_SPANS:
        many = worded("archive-too-many-spans", count=len(spans), cap=MAX_SPANS)
        raise Refusal(ErrorCode.INVALID_ARGUMENT, many)
    for first, last in spans:
        if last < first:
            backwards = worded("archive-span-backwards", first=first, last=last)
            raise Refusal(ErrorCode.INVALID_ARGUMENT, backwards)
    return tuple(spans)


def archive_turns(archive: Archive, window: Window, spans: Sequence[Span]) -> Archived:
    """Move the turns `spans` cover out of `window`, keeping their results in `archive`."""
    chosen = checked_spans(spans)
    held = window.remove_turns(lambda turn: any(first <= turn <= last for first, last in chosen))
    entries = archive.record(held)
    chars = sum(len(message.content) for _, message in held)
    earliest = min((mark.turn for mark, _ in held), default=None)
    return Archived(chosen, len(held), entries, chars, earliest)


class ArchiveModule(Module):
    """The `archive` module: one holder's thread archive, with its four answers for the module
    framework.

    - open: `fresh(holder)`, an empty archive (the framework mints its store id, `archive-<n>`).
    - prompt: nothing, ever; the archive is out of the window by definition.
    - report: `restate(id)` is its `archive_state` (at open, empty); `drain(id)` is, for each
      reclaim since the last drain in order, its `context_managed` and, when the archive grew, the
      `archive_state` after it.
    - fork: `copy()` is a deep copy carrying `next_seq` on, with nothing left to report; an archive
      never links, so a share is a copy too.
    - transfer: `adopt(holder)` always carries it as it is; the capability has nothing to re-point. It is
      never incompatible; a receiving profile without `agent-managed-context` drops it.
    The calls: `archive_thread` and `search` (the archive), `evict_file_views` (a reclaim of the
    same capability, which leaves the archive as it is).
    """

    kind: ClassVar[ModuleKind] = ModuleKind.ARCHIVE

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self._unreported: list[Payload | None] = []  # None: the archive's state at drain time

    @classmethod
    def fresh(cls, holder: Holder) -> ArchiveModule:
        return cls(Archive())

    def copy(self) -> ArchiveModule:
        return ArchiveModule(self.archive.copy())

    def share(self) -> ArchiveModule:
        return self.copy()

    def adopt(self, holder: Holder) -> ArchiveModule:
        return self

    def restate(self, module_id: str) -> list[Payload]:
        return [ArchiveState(module_id=module_id, **self.archive.snapshot())]

    def drain(self, module_id: str) -> list[Payload]:
        drained, self._unreported = self._unreported, []
        return [event if event is not None else self.restate(module_id)[0] for event in drained]

    def archive_thread(self, window: Window, spans: Sequence[Span]) -> dict[str, Any]:
        """Move the turns out of `window`; the `ReclaimReport` of what left. Raises `Refusal`."""
        done = archive_turns(self.archive, window, spans)
        detail = prompts.render(
            "archive-reclaimed",
            turns=", ".join(str(a) if a == b else f"{a}–{b}" for a, b in done.spans),
            items=done.items,
            kept=len(done.entries),
            seqs=", ".join(f"#{entry.seq}" for entry in done.entries),
            tokens=done.reclaimed_tokens,
            chars_per_token=CHARS_PER_TOKEN,
            count=len(self.archive.entries),
        )
        action = ContextAction.ARCHIVE_THREAD
        self._unreported.append(_managed(action, done.reclaimed_tokens, done.items, detail, done.earliest))
        if done.entries:
            self._unreported.append(None)
        return _report(done.items, done.reclaimed_tokens, [], detail)

    def search(self, query: str) -> dict[str, Any]:
        """The `ArchiveSearch` for `query`. Raises `Refusal`."""
        hits = self.archive.search(query)
        return {"archiveEmpty": not self.archive.entries, "hits": [entry.hit() for entry in hits]}

    def evict_file_views(self, window: Window, views: ViewSet, path: str | None) -> dict[str, Any]:
        """Close every file view (of `path`, when given), in the window and of this turn."""
        shows = _shows_file(path)
        gone = window.remove_views(lambda view: view.kind is ViewKind.FILE and shows(view.selector))
        pending = views.close(lambda view: isinstance(view, FileView) and shows(view.path))
        paths = [mark.view.selector for mark, _ in gone if mark.view is not None]
        paths = list(dict.fromkeys([*paths, *(view.selector for view in pending)]))
        items = len(gone) + len(pending)
        tokens = -(-sum(len(message.content) for _, message in gone) // CHARS_PER_TOKEN)
        detail = prompts.render(
            "evict-reclaimed",
            paths=", ".join(f"`{p}`" for p in paths),
            path=path or "",
            items=items,
            tokens=tokens,
            chars_per_token=CHARS_PER_TOKEN,
        )
        self._unreported.append(_managed(ContextAction.EVICT_FILE_VIEW, tokens, items, detail, None))
        return _report(items, tokens, paths, detail)


def _shows_file(path: str | None) -> Callable[[str], bool]:
    return (lambda _: True) if path is None else (lambda selector: selector == path)


def _managed(action: ContextAction, tokens: int, items: int, detail: str, earliest: int | None) -> Payload:
    return ContextManaged(
        action=action.value, reclaimed_tokens=tokens, items=items, detail=detail, earliest_removed=earliest
    )


def _report(items: int, tokens: int, paths: list[str], detail: str) -> dict[str, Any]:
    """A `ReclaimReport`."""
    return {"items": items, "reclaimedTokens": tokens, "paths": paths, "detail": detail}
