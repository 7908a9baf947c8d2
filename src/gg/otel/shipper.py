"""Spans shipped from a background thread to the OTLP/HTTP exporter (`gg.otel.sdk_edge`).

Rules:
- Shipping never blocks and never fails the caller: spans go into a bounded queue (`MAX_QUEUE`;
  past it a span is dropped and counted) and one background thread, which also loads the SDK,
  sends them in batches of at most `BATCH`, at least every `SCHEDULE_SECS`.
- The first batch the collector does not take (the exporter's own retries spent), or an SDK that
  cannot be loaded, makes one warning on the notes stream; every span after it is dropped at once,
  unsent, so an unreachable collector costs the run nothing more.
- `close` waits at most `FINAL_WAIT_SECS` for the queue to drain, then stops the exporter (which
  cuts its retries short); it returns how many spans were handed and how many the collector took,
  and says on the notes stream how many were dropped. The exporter's own log lines stay out of the
  operator's stream.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from gg.otel.delivery import Delivery, require_sdk
from gg.otel.settings import OtelSettings
from gg.otel.spans import Span

if TYPE_CHECKING:
    from gg.otel.sdk_edge import SdkEdge

FINAL_WAIT_SECS = 2.0
STOP_WAIT_SECS = 0.5
MAX_QUEUE = 8192
BATCH = 512
SCHEDULE_SECS = 1.0


class Shipper:
    """One export's queue, sending thread and counts."""

    def __init__(self, settings: OtelSettings, notes: TextIO) -> None:
        logging.getLogger("opentelemetry").addHandler(logging.NullHandler())
        self._settings = settings
        self._notes = notes
        self._edge: SdkEdge | None = None
        self._queue: deque[Span] = deque()
        self._wake = threading.Condition()
        self._closing = False
        self._failed = False
        self._warned = False
        self._handed = 0
        self._sent = 0
        self._thread = threading.Thread(target=self._send_loop, name="gg-otel", daemon=True)
        self._thread.start()

    def ship(self, spans: Sequence[Span]) -> None:
        with self._wake:
            self._handed += len(spans)
            if not self._failed:
                self._queue.extend(spans[: max(MAX_QUEUE - len(self._queue), 0)])
            if len(self._queue) >= BATCH:
                self._wake.notify()

    def close(self) -> Delivery:
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(FINAL_WAIT_SECS)
        with self._wake:
            edge = self._edge
        if edge is not None:
            edge.stop()
        self._thread.join(STOP_WAIT_SECS)
        with self._wake:
            delivery = Delivery(self._handed, self._sent)
            self._queue.clear()
        if delivery.dropped:
            self._warn()
            self._say(f"gg: OpenTelemetry: {delivery.dropped} of {delivery.handed} spans were dropped")
        return delivery

    def _send_loop(self) -> None:
        if not self._load():
            return
        while True:
            with self._wake:
                if not self._queue and not self._closing:
                    self._wake.wait(SCHEDULE_SECS)
                batch = [self._queue.popleft() for _ in range(min(BATCH, len(self._queue)))]
                if not batch and self._closing:
                    return
            if batch and not self._failed:
                self._send(batch)

    def _load(self) -> bool:
        """Load the SDK and make the exporter, off the run's thread."""
        try:
            from gg.otel.sdk_edge import SdkEdge

            edge = SdkEdge(self._settings)
        except Exception:
            self._fail()
            return False
        with self._wake:
            self._edge = edge
        return True

    def _send(self, batch: list[Span]) -> None:
        assert self._edge is not None
        try:
            taken = self._edge.send(batch)
        except Exception:
            taken = False
        if taken:
            with self._wake:
                self._sent += len(batch)
            return
        self._fail()

    def _fail(self) -> None:
        with self._wake:
            self._failed = True
            self._queue.clear()
        self._warn()

    def _warn(self) -> None:
        with self._wake:
            if self._warned:
                return
            self._warned = True
        self._say(
            f"gg: warning: OpenTelemetry: the collector at {self._settings.endpoint} did not take the spans;"
            " the rest of them are dropped and counted"
        )

    def _say(self, line: str) -> None:
        try:
            self._notes.write(line + "\n")
            self._notes.flush()
        except Exception:
            pass  # the notes stream is the last resort


def open_shipper(settings: OtelSettings, notes: TextIO) -> Shipper:
    """A shipper for `settings`: the one way to open one; raises `MissingExtra` without the SDK."""
    require_sdk()
    return Shipper(settings, notes)
