"""Spans as an OTLP JSON document (`ExportTraceServiceRequest`), as `gg export otel --json` writes
it. Pure; needs no SDK.

Rules (OTLP's JSON encoding): keys are lowerCamelCase; trace and span ids are hex; times are
nanoseconds as decimal text; kinds and status codes are their numbers; an attribute is
`{"key", "value": {"stringValue" | "boolValue" | "intValue" (decimal text) | "doubleValue" |
"arrayValue"}}`. One resource and one scope (`gg`) hold every span given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gg.otel.spans import AttributeValue, Span, StatusCode
from gg.version import __version__

SCOPE = "gg"


def otlp_document(spans: Sequence[Span], resource: Mapping[str, str]) -> dict[str, Any]:
    scope = {"scope": {"name": SCOPE, "version": __version__}, "spans": [_span(s) for s in spans]}
    return {"resourceSpans": [{"resource": {"attributes": _attributes(resource)}, "scopeSpans": [scope]}]}


def _span(span: Span) -> dict[str, Any]:
    out: dict[str, Any] = {
        "traceId": span.trace_id,
        "spanId": span.span_id,
        "name": span.name,
        "kind": span.kind.value,
        "startTimeUnixNano": str(span.start_ns),
        "endTimeUnixNano": str(span.end_ns),
        "attributes": _attributes(span.attributes),
        "events": [
            {"timeUnixNano": str(e.time_ns), "name": e.name, "attributes": _attributes(e.attributes)}
            for e in span.events
        ],
        "links": [
            {"traceId": link.trace_id, "spanId": link.span_id, "attributes": _attributes(link.attributes)}
            for link in span.links
        ],
        "status": _status(span),
    }
    if span.parent_id:
        out["parentSpanId"] = span.parent_id
    return out


def _status(span: Span) -> dict[str, Any]:
    status: dict[str, Any] = {"code": span.status.value}
    if span.status is StatusCode.ERROR and span.status_message:
        status["message"] = span.status_message
    return status


def _attributes(values: Mapping[str, AttributeValue]) -> list[dict[str, Any]]:
    return [{"key": key, "value": _value(value)} for key, value in values.items()]


def _value(value: AttributeValue) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, tuple):
        return {"arrayValue": {"values": [{"stringValue": item} for item in value]}}
    return {"stringValue": value}
