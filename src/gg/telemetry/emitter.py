"""The emitter: stamps each payload into an `Event` and fans it out to the sinks, in order.

Rules:
- `Telemetry.emit` is the one place events are made: the run id, the clock's timestamp, the agent
  and the turn go on the envelope here. Emits from several agent threads are serialized, so every
  sink sees one total order.
- Sinks are written in the order given. A sink that raises is disabled for the rest of the run:
  the failure is kept (`Telemetry.failures`), one note goes to the injected `notes` stream
  (stderr by default), and a `log` event at level `error` naming the sink goes to the sinks that
  still work, so the record itself says it is partial. The run goes on: losing one record must
  not lose the run, and a failing terminal must not stop the store.
- Emitting after `close` is gg's own defect (`GgDefect`).
"""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from gg.errors import FatalFault, GgDefect
from gg.telemetry.clock import Clock, format_timestamp, utc_now
from gg.telemetry.events import Event, EventType, Log, LogLevel, Payload
from gg.wire import well_formed_value

SINK_FAILED_MESSAGE = "telemetry sink disabled"


def well_formed_payload(payload: Payload) -> Payload:
    """`payload` with every string in it (nested ones too) well-formed; itself when it already is."""
    changes = {}
    for field in dataclasses.fields(payload):
        value = getattr(payload, field.name)
        cleaned = well_formed_value(value)
        if cleaned is not value:
            changes[field.name] = cleaned
    return dataclasses.replace(payload, **changes) if changes else payload


class Sink(Protocol):
    """Where events go: the run store, the NDJSON file, the terminal, a test's list."""

    def write(self, event: Event) -> None: ...

    def close(self) -> None: ...


class CollectingSink:
    """Keeps every event in memory (tests, and anything that folds a live run)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.closed = False

    def write(self, event: Event) -> None:
        self.events.append(event)

    def close(self) -> None:
        self.closed = True

    def wire(self) -> list[dict[str, Any]]:
        """Every event as its wire record."""
        return [event.to_wire() for event in self.events]

    def of_type(self, kind: EventType) -> list[Event]:
        return [event for event in self.events if event.type is kind]


@dataclass(frozen=True)
class SinkFailure:
    """A sink that raised and was disabled: which one, on what, and why."""

    sink: str
    event_type: EventType | None
    error: str


class Telemetry:
    """One run's emitter. `sinks` are written in order; see the module rules for failures."""

    def __init__(
        self,
        run_id: str,
        sinks: Sequence[Sink],
        clock: Clock = utc_now,
        notes: TextIO | None = None,
    ) -> None:
        self._run_id = run_id
        self._sinks: list[Sink] = list(sinks)
        self._clock = clock
        self._notes = notes
        self._failures: list[SinkFailure] = []
        self._lock = threading.Lock()
        self._closed = False

    @property
    def run_id(self) -> str:
        return self._run_id

    @property
    def failures(self) -> tuple[SinkFailure, ...]:
        return tuple(self._failures)

    def emit(self, agent_id: str, turn: int, payload: Payload, parent_agent_id: str | None = None) -> Event:
        """Stamp `payload` and write it to every live sink, in order. Returns the event."""
        with self._lock:
            if self._closed:
                raise GgDefect(FatalFault.HOST_FAULT, f"telemetry emitted `{payload.TYPE}` after close")
            event = self._stamp(agent_id, turn, payload, parent_agent_id)
            self._fan_out(event)
            return event

    def close(self) -> None:
        """Close every live sink once; a sink that fails to close is recorded like a write failure."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for sink in self._sinks:
                try:
                    sink.close()
                except Exception as exc:
                    self._record(sink, None, exc)
            self._sinks = []

    def _stamp(self, agent_id: str, turn: int, payload: Payload, parent: str | None = None) -> Event:
        """The envelope around `payload`, whose every text is made well-formed first: a lone
        surrogate a program or a model wrote must not cost the run its record."""
        timestamp = format_timestamp(self._clock())
        return Event(self._run_id, agent_id, turn, timestamp, well_formed_payload(payload), parent)

    def _fan_out(self, event: Event) -> None:
        failed = [(sink, exc) for sink in list(self._sinks) if (exc := _write(sink, event))]
        for sink, _ in failed:
            self._sinks.remove(sink)
        for sink, exc in failed:
            self._record(sink, event.type, exc)
            note = Log(level=LogLevel.ERROR.value, message=SINK_FAILED_MESSAGE, fields=_fields(sink, exc))
            if self._sinks:
                self._fan_out(self._stamp(event.agent_id, event.turn, note, event.parent_agent_id))

    def _record(self, sink: Sink, event_type: EventType | None, exc: Exception) -> None:
        failure = SinkFailure(type(sink).__name__, event_type, _describe(exc))
        self._failures.append(failure)
        on = f" on `{event_type}`" if event_type else " on close"
        notes = self._notes if self._notes is not None else sys.stderr
        try:
            notes.write(f"gg: {SINK_FAILED_MESSAGE}: {failure.sink} failed{on}: {failure.error}\n")
            notes.flush()
        except Exception:
            pass  # the notes stream is the last resort; the failure stays in `failures`.


def _write(sink: Sink, event: Event) -> Exception | None:
    try:
        sink.write(event)
    except Exception as exc:
        return exc
    return None


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def _fields(sink: Sink, exc: Exception) -> dict[str, Any]:
    return {"sink": type(sink).__name__, "error": _describe(exc)}
