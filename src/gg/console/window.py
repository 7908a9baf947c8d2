"""Each agent's window as every request sent it, rebuilt from `model_request`. Pure.

Rules:
- A `model_request` carries the messages appended since the agent's previous request; a
  `system` message among them fills the system-prompt slot, which renders first on every
  request and is not part of the thread.
- A `compaction` restarts the thread, and so does a `context_managed` that took messages out of
  the window (`items` > 0: an archived turn, a closed or evicted view): the next request records
  the whole window anew, so the window it sent begins at that request's first message.
- The views a turn opened are the user messages the next request added that are not the turn's
  feedback; after a restart they are among the restated window and are not known.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.record.envelope import Record, records_of
from gg.record.records import RecordedMessage, int_of, list_of, read_message
from gg.telemetry.events import EventType

VIEW_RULE = "----"
COMPACTED = "compaction"


@dataclass(frozen=True)
class SentRequest:
    """One request: the messages it added, and the window it sent as a slice of the log."""

    turn: int
    index: int
    added: tuple[RecordedMessage, ...]
    start: int  # the window's first message in the agent's log
    end: int  # one past its last
    system: int  # which of the agent's system prompts it sent (-1: none recorded)
    restarted: str | None = None  # what restated the window before it: compaction, archive_thread, ...

    @property
    def after_compaction(self) -> bool:
        return self.restarted == COMPACTED


@dataclass(frozen=True)
class CompactionSeen:
    turn: int
    summary: str
    files: tuple[str, ...]
    messages_before: int
    messages_after: int


@dataclass(frozen=True)
class Reclaim:
    """An agent's own move of part of its window out (`context_managed`), as gg described it."""

    turn: int
    action: str
    items: int
    detail: str


@dataclass(frozen=True)
class ViewShown:
    heading: str
    body: str


@dataclass
class AgentWindow:
    agent_id: str
    log: list[RecordedMessage] = field(default_factory=list[RecordedMessage])
    systems: list[str] = field(default_factory=list[str])
    requests: list[SentRequest] = field(default_factory=list[SentRequest])
    compactions: list[CompactionSeen] = field(default_factory=list[CompactionSeen])
    reclaims: list[Reclaim] = field(default_factory=list[Reclaim])

    @property
    def system(self) -> str | None:
        return self.systems[-1] if self.systems else None

    def window(self, request: SentRequest) -> list[RecordedMessage]:
        return self.log[request.start : request.end]

    def reclaims_of(self, turn: int) -> list[Reclaim]:
        return [r for r in self.reclaims if r.turn == turn]

    def request_for(self, turn: int) -> SentRequest | None:
        return next((r for r in self.requests if r.turn == turn), None)

    def views_of(self, turn: int, feedback: Iterable[str]) -> list[ViewShown] | None:
        """The views turn `turn` opened, as the model read them; None when that is not known."""
        following = self.request_for(turn + 1)
        if following is None or following.restarted is not None:
            return None
        skip = set(feedback)
        return [view_shown(m.content) for m in following.added if m.role == "user" and m.content not in skip]


def view_shown(content: str) -> ViewShown:
    heading, _, rest = content.partition("\n")
    if rest.startswith(VIEW_RULE):
        rest = rest.partition("\n")[2]
    return ViewShown(heading, rest)


def fold_windows(records: Iterable[Mapping[str, Any]]) -> dict[str, AgentWindow]:
    windows: dict[str, AgentWindow] = {}
    thread_start: dict[str, int] = {}
    restarted: dict[str, str] = {}
    for record in records_of(records):
        kind = record.type
        if kind not in (EventType.MODEL_REQUEST, EventType.COMPACTION, EventType.CONTEXT_MANAGED):
            continue
        agent = record.agent_id
        window = windows.setdefault(agent, AgentWindow(agent))
        if kind == EventType.MODEL_REQUEST:
            _add_request(window, record, thread_start.get(agent, 0), restarted.pop(agent, None))
            continue
        if kind == EventType.COMPACTION:
            window.compactions.append(_compaction(record))
        else:
            reclaim = _reclaim(record)
            window.reclaims.append(reclaim)
            if reclaim.items == 0:
                continue  # nothing left the window: the next request adds to it as usual
        thread_start[agent] = len(window.log)
        restarted[agent] = COMPACTED if kind == EventType.COMPACTION else str(record.get("action") or "")
    return windows


def _add_request(window: AgentWindow, record: Record, start: int, restarted: str | None) -> None:
    added = tuple(read_message(raw) for raw in list_of(record.get("messages")))
    for message in added:
        if message.role == "system":
            window.systems.append(message.content)
        else:
            window.log.append(message)
    window.requests.append(
        SentRequest(
            turn=record.turn,
            index=int_of(record.get("requestIndex")) or len(window.requests) + 1,
            added=added,
            start=start,
            end=len(window.log),
            system=len(window.systems) - 1,
            restarted=restarted,
        )
    )


def _compaction(record: Record) -> CompactionSeen:
    return CompactionSeen(
        turn=record.turn,
        summary=str(record.get("summary") or ""),
        files=tuple(str(f) for f in list_of(record.get("files"))),
        messages_before=int_of(record.get("messagesBefore")),
        messages_after=int_of(record.get("messagesAfter")),
    )


def _reclaim(record: Record) -> Reclaim:
    return Reclaim(
        turn=record.turn,
        action=str(record.get("action") or ""),
        items=int_of(record.get("items")),
        detail=str(record.get("detail") or ""),
    )
