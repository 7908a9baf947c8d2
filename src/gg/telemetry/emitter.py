"""The emitter: stamps each payload into an `Event` and fans it out to the sinks, in order.

Rules:
- `Telemetry.emit` is the one place events are made: the run id, the clock's timestamp, the agent
  and the turn go on the envelope here. Emits from several agent threads are serialized, so every
  sink sees one total order.
- The sinks given first are the run's record (the run store, the NDJSON file, a recording); the
  `watchers` follow (the live terminal, a caller's callback). Each event goes to the record, in
  order, then to the watchers, in order.
- A record sink that raises has lost the run's record, which is gg's own defect: the sink is
  dropped (and closed as far as it still can be), the failure is kept (`failures`), one sentence
  naming where it writes and why it failed goes to the injected `notes` stream (stderr by
  default), a `log` at level `error` (`RECORD_LOST`, with the path and the cause) goes to every
  sink still working, so the record itself says it is partial, and each listener (`on_loss`) is
  told the loss (the run ends on it, `gg.agents.context`). `lost` is the first loss.
- An event a record sink could not write reaches no watcher: nothing shows what the record lacks
  (a run's end that could not be kept is never shown as it was).
- A watcher that raises is dropped for the rest of the run, with one note on `notes` and a `log`
  at level `warn` in the record; the run goes on, its record whole.
- Emitting after `close` is gg's own defect (`GgDefect`).
"""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO, runtime_checkable

from gg.errors import FatalFault, GgDefect
from gg.telemetry.clock import Clock, format_timestamp, utc_now
from gg.telemetry.events import Event, EventType, Log, LogLevel, Payload
from gg.wire import escaped, well_formed_value

RECORD_LOST = "the run's record is lost"
WATCHER_DROPPED = "watcher dropped"


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


@runtime_checkable
class Located(Protocol):
    """A sink that writes to a file, which a loss names."""

    path: Path


@runtime_checkable
class Addressed(Protocol):
    """A sink that writes to a store it names as it may be printed (a server's URL without its
    password), which a loss names rather than any path."""

    where: str


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
    """A sink that raised and was dropped: which one, on what, and why."""

    sink: str
    event_type: EventType | None
    error: str


def loss_of(sink: Sink, exc: BaseException) -> str:
    """The sentence a record sink's failure is told in: where it writes, and why it failed."""
    if isinstance(sink, Addressed):
        where = sink.where
    else:
        where = escaped(str(sink.path)) if isinstance(sink, Located) else type(sink).__name__
    return f"{RECORD_LOST}: {where} could not be written ({_cause(exc)})"


class Telemetry:
    """One run's emitter. `sinks` are the record, `watchers` follow; see the module rules."""

    def __init__(
        self,
        run_id: str,
        sinks: Sequence[Sink],
        clock: Clock = utc_now,
        notes: TextIO | None = None,
        *,
        watchers: Sequence[Sink] = (),
    ) -> None:
        self._run_id = run_id
        self._record: list[Sink] = list(sinks)
        self._watchers: list[Sink] = list(watchers)
        self._clock = clock
        self._notes = notes
        self._failures: list[SinkFailure] = []
        self._losses: list[str] = []
        self._listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        self._closed = False

    @property
    def run_id(self) -> str:
        return self._run_id

    @property
    def failures(self) -> tuple[SinkFailure, ...]:
        return tuple(self._failures)

    @property
    def lost(self) -> str | None:
        """The first loss of the run's record, told as a sentence; None while it is whole."""
        with self._lock:
            return self._losses[0] if self._losses else None

    def on_loss(self, listener: Callable[[str], None]) -> None:
        """Tell `listener` each loss of the record: a loss already met at once, every later one
        as it happens (on the thread that emitted)."""
        with self._lock:
            self._listeners.append(listener)
            met = list(self._losses)
        for loss in met:
            listener(loss)

    def emit(self, agent_id: str, turn: int, payload: Payload, parent_agent_id: str | None = None) -> Event:
        """Stamp `payload` and write it to every live sink, in order. Returns the event."""
        with self._lock:
            if self._closed:
                raise GgDefect(FatalFault.HOST_FAULT, f"telemetry emitted `{payload.TYPE}` after close")
            event = self._stamp(agent_id, turn, payload, parent_agent_id)
            losses = self._fan_out(event)
        for loss in losses:
            self._tell(loss)
        return event

    def close(self) -> None:
        """Close every live sink once; a record sink that fails to close is a loss like a write
        failure, a watcher's is said and ignored."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for sink in self._record:
                if (exc := _attempt(sink.close)) is not None:
                    self._lose(sink, None, exc)
            for sink in self._watchers:
                if (exc := _attempt(sink.close)) is not None:
                    self._drop(sink, None, exc)
            self._record, self._watchers = [], []

    def _stamp(self, agent_id: str, turn: int, payload: Payload, parent: str | None = None) -> Event:
        """The envelope around `payload`, whose every text is made well-formed first: a lone
        surrogate a program or a model wrote must not cost the run its record."""
        timestamp = format_timestamp(self._clock())
        return Event(self._run_id, agent_id, turn, timestamp, well_formed_payload(payload), parent)

    def _fan_out(self, event: Event) -> list[str]:
        """Write `event` to the record, then (when the record kept it) to the watchers; the losses
        it caused, each noted in the record already."""
        failed = [(sink, exc) for sink in list(self._record) if (exc := _attempt(sink.write, event))]
        losses = [self._lose(sink, event.type, exc) for sink, exc in failed]
        if not failed:
            dropped = [(sink, exc) for sink in list(self._watchers) if (exc := _attempt(sink.write, event))]
            for sink, exc in dropped:
                self._drop(sink, event.type, exc)
                losses += self._note(event, LogLevel.WARN, WATCHER_DROPPED, sink, exc)
        for sink, exc in failed:
            losses += self._note(event, LogLevel.ERROR, RECORD_LOST, sink, exc)
        return losses

    def _note(self, event: Event, level: LogLevel, message: str, sink: Sink, exc: Exception) -> list[str]:
        """A `log` about a failed sink, on the turn of the event it failed on."""
        note = Log(level=level.value, message=message, fields=_fields(sink, exc))
        return self._fan_out(self._stamp(event.agent_id, event.turn, note, event.parent_agent_id))

    def _lose(self, sink: Sink, event_type: EventType | None, exc: Exception) -> str:
        """Drop a record sink that failed (on `event_type`, or on close when None); the loss."""
        if event_type is not None:
            self._record.remove(sink)
            _attempt(sink.close)
        self._failures.append(SinkFailure(type(sink).__name__, event_type, _describe(exc)))
        loss = loss_of(sink, exc)
        self._losses.append(loss)
        self._say(f"gg: {loss}; the run stops." if event_type is not None else f"gg: {loss}.")
        return loss

    def _drop(self, sink: Sink, event_type: EventType | None, exc: Exception) -> None:
        if event_type is not None:
            self._watchers.remove(sink)
        failure = SinkFailure(type(sink).__name__, event_type, _describe(exc))
        self._failures.append(failure)
        on = f" on `{event_type}`" if event_type else " on close"
        self._say(f"gg: {WATCHER_DROPPED}: {failure.sink} failed{on}: {failure.error}")

    def _tell(self, loss: str) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(loss)

    def _say(self, line: str) -> None:
        notes = self._notes if self._notes is not None else sys.stderr
        try:
            notes.write(line + "\n")
            notes.flush()
        except Exception:
            pass  # the notes stream is the last resort; the failure stays in `failures`.


def _attempt(action: Callable[..., None], *args: Any) -> Exception | None:
    try:
        action(*args)
    except Exception as exc:
        return exc
    return None


def _cause(exc: BaseException) -> str:
    """Why a write failed, in the system's words (`No space left on device`)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def _fields(sink: Sink, exc: Exception) -> dict[str, Any]:
    fields: dict[str, Any] = {"sink": type(sink).__name__, "error": _describe(exc)}
    if isinstance(sink, Located):
        fields["path"] = str(sink.path)
    return fields
