"""The OpenTelemetry SDK's side of the shipper: the OTLP/HTTP exporter, and span values as the
SDK's `ReadableSpan` with their own ids and times. The one module that imports the SDK; the
shipper's sending thread imports it, so the run's own thread never pays for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import Link, SpanContext, SpanKind, Status, TraceFlags
from opentelemetry.trace import StatusCode as Code

from gg.otel.settings import OtelSettings
from gg.otel.spans import Kind, Span, StatusCode
from gg.version import __version__

SCOPE = "gg"
_CODES = {StatusCode.UNSET: Code.UNSET, StatusCode.OK: Code.OK, StatusCode.ERROR: Code.ERROR}


class SdkEdge:
    """An exporter to the settings' endpoint, and the conversion its batches need."""

    def __init__(self, settings: OtelSettings, exporter: SpanExporter | None = None) -> None:
        self.exporter = exporter or OTLPSpanExporter(endpoint=settings.endpoint)
        self._resource = Resource(dict(settings.resource))
        self._scope = InstrumentationScope(SCOPE, __version__)

    def send(self, spans: Sequence[Span]) -> bool:
        """Whether the collector took the batch (after the exporter's own retries)."""
        return self.exporter.export([self._readable(span) for span in spans]) is SpanExportResult.SUCCESS

    def stop(self) -> None:
        self.exporter.shutdown()

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
