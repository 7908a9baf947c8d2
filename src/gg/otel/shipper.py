"""The edge to the OpenTelemetry SDK: span values handed to the OTLP/HTTP exporter, with their own
ids and times, from a background thread. Imported only when an export is asked for.

Rules:
- Shipping never blocks and never fails the caller: spans go into a bounded queue (`MAX_QUEUE`;
  past it a span is dropped and counted) and one background thread sends them in batches of at
  most `BATCH`, at least every `SCHEDULE_SECS`.
- The first batch the collector does not take (the exporter's own retries spent) makes one warning
  on the notes stream; every batch after it is dropped at once, unsent, so an unreachable
  collector costs the run nothing more.
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
from typing import TextIO

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import Link, SpanContext, SpanKind, Status, TraceFlags
from opentelemetry.trace import StatusCode as Code

from gg import __version__
from gg.otel.delivery import Delivery
from gg.otel.settings import OtelSettings
from gg.otel.spans import Kind, Span, StatusCode

FINAL_WAIT_SECS = 2.0
STOP_WAIT_SECS = 0.5
MAX_QUEUE = 8192
BATCH = 512
SCHEDULE_SECS = 1.0
SCOPE = "gg"
_CODES = {StatusCode.UNSET: Code.UNSET, StatusCode.OK: Code.OK, StatusCode.ERROR: Code.ERROR}


class Shipper:
    """One export's exporter, queue, sending thread and counts."""

    def __init__(self, settings: OtelSettings, notes: TextIO, exporter: SpanExporter | None = None) -> None:
        logging.getLogger("opentelemetry").addHandler(logging.NullHandler())
        self._settings = settings
        self._notes = notes
        self._exporter = exporter or OTLPSpanExporter(endpoint=settings.endpoint)
        self._resource = Resource(dict(settings.resource))
        self._scope = InstrumentationScope(SCOPE, __version__)
        self._queue: deque[ReadableSpan] = deque()
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
            for span in spans:
                self._handed += 1
                if len(self._queue) < MAX_QUEUE and not self._failed:
                    self._queue.append(self._readable(span))
            if len(self._queue) >= BATCH:
                self._wake.notify()

    def close(self) -> Delivery:
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(FINAL_WAIT_SECS)
        self._exporter.shutdown()
        self._thread.join(STOP_WAIT_SECS)
        with self._wake:
            delivery = Delivery(self._handed, self._sent)
            self._queue.clear()
        if delivery.dropped:
            self._warn()
            self._say(f"gg: OpenTelemetry: {delivery.dropped} of {delivery.handed} spans were dropped")
        return delivery

    def _send_loop(self) -> None:
        while True:
            with self._wake:
                if not self._queue and not self._closing:
                    self._wake.wait(SCHEDULE_SECS)
                batch = [self._queue.popleft() for _ in range(min(BATCH, len(self._queue)))]
                if not batch and self._closing:
                    return
            if batch and not self._failed:
                self._send(batch)

    def _send(self, batch: list[ReadableSpan]) -> None:
        try:
            taken = self._exporter.export(batch) is SpanExportResult.SUCCESS
        except Exception:
            taken = False
        with self._wake:
            if taken:
                self._sent += len(batch)
                return
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

    def _readable(self, span: Span) -> ReadableSpan:
        """The span as the SDK's `ReadableSpan`, its ids and times kept."""
        message = span.status_message if span.status is StatusCode.ERROR else None
        return ReadableSpan(
            name=span.name,
            context=_context(span.trace_id, span.span_id),
            parent=_context(span.trace_id, span.parent_id) if span.parent_id else None,
            resource=self._resource,
            attributes=dict(span.attributes),
            events=[Event(e.name, dict(e.attributes), e.time_ns) for e in span.events],
            links=[Link(_context(link.trace_id, link.span_id), dict(link.attributes)) for link in span.links],
            kind=SpanKind.CLIENT if span.kind is Kind.CLIENT else SpanKind.INTERNAL,
            status=Status(_CODES[span.status], message),
            start_time=span.start_ns,
            end_time=span.end_ns,
            instrumentation_scope=self._scope,
        )


def _context(trace_id: str, span_id: str) -> SpanContext:
    return SpanContext(int(trace_id, 16), int(span_id, 16), is_remote=False, trace_flags=TraceFlags(1))
