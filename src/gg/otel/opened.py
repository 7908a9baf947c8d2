"""A span while it is open, and an agent instance's open spans. Pure.

Rules:
- An open span knows its key, name, kind, parent and start; its attributes, events and links
  grow until it closes, at a time never before its start.
- An instance keeps the one model request and the one program it may have open, the SDK calls
  that program has open, the receipts of its current turn (the submissions, in order, that its
  programs answer), the time the last step of its turn ended (where its next program starts),
  its latest program's span (where a subagent it starts, or a hand-over it asks for, is tied) and
  the replies it received (its token totals).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.otel.spans import Attributes, AttributeValue, Kind, Span, SpanEvent, SpanLink, StatusCode


@dataclass
class OpenSpan:
    span_id: str
    name: str
    kind: Kind
    parent_id: str | None
    start_ns: int
    attributes: Attributes = field(default_factory=dict[str, AttributeValue])
    events: list[SpanEvent] = field(default_factory=list[SpanEvent])
    links: list[SpanLink] = field(default_factory=list[SpanLink])

    def closed(
        self, trace_id: str, end_ns: int, status: StatusCode = StatusCode.UNSET, message: str | None = None
    ) -> Span:
        return Span(
            trace_id=trace_id,
            span_id=self.span_id,
            parent_id=self.parent_id,
            name=self.name,
            kind=self.kind,
            start_ns=self.start_ns,
            end_ns=max(end_ns, self.start_ns),
            attributes={str(key): value for key, value in self.attributes.items()},
            events=tuple(self.events),
            links=tuple(self.links),
            status=status,
            status_message=message,
        )


@dataclass
class OpenedAgent:
    """One agent instance's span and what is open under it."""

    agent_id: str
    span: OpenSpan
    model_id: str
    arm: str | None
    requests: int = 0
    chat: OpenSpan | None = None
    program: OpenSpan | None = None
    turn: int = 0
    programs_in_turn: int = 0
    receipts: list[Mapping[str, Any]] = field(default_factory=list[Mapping[str, Any]])
    boundary_ns: int = 0
    last_program: str | None = None
    calls: list[tuple[int, OpenSpan]] = field(default_factory=list[tuple[int, OpenSpan]])
    call_count: int = 0
    replies: list[Mapping[str, Any]] = field(default_factory=list[Mapping[str, Any]])

    def anchor(self) -> str:
        """Where something this instance starts is tied: its open program, else its latest
        program, else its own span."""
        if self.program is not None:
            return self.program.span_id
        return self.last_program or self.span.span_id

    def take_call(self, ordinal: int) -> OpenSpan | None:
        """The open SDK call with this ordinal, the oldest first; None when none is open."""
        for position, (number, span) in enumerate(self.calls):
            if number == ordinal:
                del self.calls[position]
                return span
        return None
