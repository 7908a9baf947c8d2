"""Span values: what gg hands any OpenTelemetry exporter, decided from a run's events. Pure.

Rules:
- A run is one trace. Its trace id and every span id are derived from the run id and the span's
  key (`agent:root.1`, `chat:root.1:2`, ...), so the same run always makes the same ids: a live
  export and `gg export otel` of that run make the same tree, span for span.
- Times are nanoseconds since the epoch, read from the events' timestamps.
- Attribute values are what OpenTelemetry carries: text, whole numbers, floats, booleans, and
  lists of text.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import TypeAlias

from gg.otel.record import parse_timestamp

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)

AttributeValue: TypeAlias = str | bool | int | float | tuple[str, ...]
Attributes: TypeAlias = dict[str, AttributeValue]


class Kind(Enum):
    """A span's kind, numbered as OTLP numbers them."""

    INTERNAL = 1
    CLIENT = 3


class StatusCode(Enum):
    """A span's status, numbered as OTLP numbers them."""

    UNSET = 0
    OK = 1
    ERROR = 2


@dataclass(frozen=True)
class SpanEvent:
    name: str
    time_ns: int
    attributes: Attributes = field(default_factory=dict[str, AttributeValue])


@dataclass(frozen=True)
class SpanLink:
    """A link to another span of the run's trace, with what the hand-over did as attributes."""

    trace_id: str
    span_id: str
    attributes: Attributes = field(default_factory=dict[str, AttributeValue])


@dataclass(frozen=True)
class Span:
    """One finished span. Ids are lowercase hex: 32 digits for the trace, 16 for a span."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    kind: Kind
    start_ns: int
    end_ns: int
    attributes: Attributes
    events: tuple[SpanEvent, ...] = ()
    links: tuple[SpanLink, ...] = ()
    status: StatusCode = StatusCode.UNSET
    status_message: str | None = None


def trace_id_of(run_id: str) -> str:
    return _digest(f"trace\0{run_id}", 16)


def span_id_of(run_id: str, key: str) -> str:
    return _digest(f"span\0{run_id}\0{key}", 8)


def _digest(text: str, size: int) -> str:
    """`size` bytes of the text's SHA-256, as hex; never all zeros (OTLP's "no id")."""
    raw = hashlib.sha256(text.encode()).digest()[:size]
    return raw.hex() if any(raw) else "01".rjust(size * 2, "0")


def nanos_of(timestamp: object) -> int | None:
    """An event's ISO 8601 timestamp as nanoseconds since the epoch; None when it is not one."""
    moment = parse_timestamp(timestamp) if isinstance(timestamp, str) else None
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // _MICROSECOND * 1_000
