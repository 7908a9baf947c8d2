"""Wire records read back as the typed events they were written from (`gg.telemetry.events`).

A record from the run store or an NDJSON file (`Event.to_wire()`) becomes the `Event` the
emitter made: its envelope (the parent agent's id included), and its payload as the dataclass of
its `type`, each field read from its camelCase key. A field left out on the wire (it was None)
takes its default; a key this gg does not declare is ignored, and a `type` it does not know is a
`ValueError`. Every payload class is known here, whichever module declares it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gg.telemetry import agent_events, breakdown, module_events
from gg.telemetry.events import Event, EventType, Payload
from gg.wire import camel

__all__ = ["PAYLOAD_CLASSES", "event_of"]


DECLARING = (agent_events, breakdown, module_events)
"""The modules declaring payloads beside `gg.telemetry.events`, imported so each class is known."""


def _payload_classes() -> dict[EventType, type[Payload]]:
    found: dict[EventType, type[Payload]] = {}
    pending: list[type[Payload]] = [Payload]
    while pending:
        for cls in pending.pop().__subclasses__():
            pending.append(cls)
            if "TYPE" in cls.__dict__:
                found[cls.TYPE] = cls
    return found


PAYLOAD_CLASSES = _payload_classes()
"""The payload dataclass of each event type."""


def event_of(record: Mapping[str, Any]) -> Event:
    """The typed event `record` (a wire record) was written from. Raises `ValueError`."""
    try:
        kind = EventType(record.get("type"))
    except ValueError:
        raise ValueError(f"`{record.get('type')}` is not an event type this gg knows") from None
    cls = PAYLOAD_CLASSES[kind]
    values = {f.name: record[camel(f.name)] for f in dataclasses.fields(cls) if camel(f.name) in record}
    envelope = (str(record["runId"]), str(record["agentId"]), int(record["turn"]), str(record["timestamp"]))
    parent = record.get("parentAgentId")
    return Event(*envelope, cls(**values), None if parent is None else str(parent))
