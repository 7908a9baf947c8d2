"""Writing wire records into a real run store, through `RunStore.write` (the writer gg uses).

Records of the types telemetry declares become their own payload classes, so the store keeps
the `runs` row as it does for a real run; records of the types it does not emit yet (the agents
and modules events) travel in a payload that writes them as they are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from gg.record.store import RunStore
from gg.telemetry.events import Event, EventType, Payload
from gg.telemetry.typed import PAYLOAD_CLASSES
from gg.wire import snake

ENVELOPE = ("type", "timestamp", "runId", "agentId", "turn")
_DECLARED: dict[str, type[Payload]] = {kind.value: cls for kind, cls in PAYLOAD_CLASSES.items()}


@dataclass(frozen=True)
class _Named:
    """Stands in for an `EventType` the telemetry package does not declare yet."""

    value: str


@dataclass(frozen=True, kw_only=True)
class AsWritten(Payload):
    TYPE: ClassVar[Any] = None
    body: Mapping[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return dict(self.body)


def as_event(record: Mapping[str, Any]) -> Event:
    kind = str(record["type"])
    body = {k: v for k, v in record.items() if k not in ENVELOPE}
    declared = _DECLARED.get(kind)
    if declared is not None:
        names = {f.name for f in dataclasses.fields(declared)}
        payload: Payload = declared(**{snake(k): v for k, v in body.items() if snake(k) in names})
    else:
        typed = type(f"AsWritten_{kind}", (AsWritten,), {"TYPE": _Named(kind)})
        payload = typed(body=body)
    return Event(
        run_id=str(record.get("runId", "run-test")),
        agent_id=str(record.get("agentId", "root")),
        turn=int(record.get("turn", 0)),
        timestamp=str(record.get("timestamp", "2026-01-01T00:00:00.000Z")),
        payload=payload,
    )


def write_records(path: Path, records: Iterable[Mapping[str, Any]], *, pid: int | None = None) -> RunStore:
    """Write every record into the store at `path`; returns the open store (close it)."""
    store = RunStore(path, pid=pid)
    for record in records:
        store.write(as_event(record))
    return store


__all__ = ["EventType", "as_event", "write_records"]
