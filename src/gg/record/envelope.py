"""An event's wire record as read back: the record as it was written, its envelope read once.

Rules:
- A `Record` is the wire record itself (a dict, equal to the one written: `Event.to_wire()`),
  with its envelope read once into typed values: `type`, `run_id`, `agent_id`, `turn`,
  `timestamp` and `parent_agent_id`. A reader takes the envelope from these, never from the keys.
- Reading an envelope never raises: a key that is missing or null reads as "" (a text), 0 (the
  turn) or None (the parent); a turn that is not a number reads as 0; any other value as its text.
- Every fold takes wire records as any mapping (a test's dicts, `CollectingSink.wire()`, an
  NDJSON file) and reads each as a `Record` once (`records_of`); a `Record` passes as it is.
- A stored event that is not a JSON object reads as a record of type `unreadable` holding the
  start of its text (`record_of`): counted and shown, never folded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from gg.record.records import int_of

UNREADABLE = "unreadable"
"""The type a stored event that is not a JSON object reads as."""
UNREADABLE_CHARS = 200


class Record(dict[str, Any]):
    """One event's wire record, its envelope read once (see the module rules)."""

    __slots__ = ("agent_id", "parent_agent_id", "run_id", "timestamp", "turn", "type")

    type: str
    run_id: str
    agent_id: str
    turn: int
    timestamp: str
    parent_agent_id: str | None

    def __init__(self, wire: Mapping[str, Any]) -> None:
        super().__init__(wire)
        self.type = _text(wire.get("type"))
        self.run_id = _text(wire.get("runId"))
        self.agent_id = _text(wire.get("agentId"))
        self.turn = int_of(wire.get("turn"))
        self.timestamp = _text(wire.get("timestamp"))
        parent = wire.get("parentAgentId")
        self.parent_agent_id = None if parent is None else str(parent)


def as_record(wire: Mapping[str, Any]) -> Record:
    """`wire` read as a `Record`; a `Record` as it is."""
    return wire if isinstance(wire, Record) else Record(wire)


def records_of(records: Iterable[Mapping[str, Any]]) -> Iterator[Record]:
    """Each wire record read as a `Record`, in order."""
    return (as_record(record) for record in records)


def record_of(text: str) -> Record:
    """A stored event's record; one that is not a JSON object reads as `unreadable`."""
    try:
        value = json.loads(text)
    except ValueError:  # not JSON, or a whole number longer than Python reads
        value = None
    if not isinstance(value, dict):
        return Record({"type": UNREADABLE, "raw": text[:UNREADABLE_CHARS]})
    return Record(value)  # pyright: ignore[reportUnknownArgumentType]


def _text(value: Any) -> str:
    return "" if value is None else str(value)
