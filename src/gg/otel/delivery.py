"""What an export delivered, and whether it can be made: the OpenTelemetry SDK is an extra, so
asking for an export without it is refused, naming the extra (`require_sdk`).
"""

from __future__ import annotations

from dataclasses import dataclass

MISSING_EXTRA = "OpenTelemetry export needs gg's `otel` extra: pip install 'gg[otel]'"


class MissingExtra(Exception):
    """The OpenTelemetry SDK or its OTLP/HTTP exporter is not installed."""


@dataclass(frozen=True)
class Delivery:
    """How many spans an export handed to the exporter, and how many the collector took."""

    handed: int
    sent: int

    @property
    def dropped(self) -> int:
        return self.handed - self.sent


SDK_MODULES = ("opentelemetry.sdk.trace", "opentelemetry.exporter.otlp.proto.http.trace_exporter")


def require_sdk() -> None:
    """Raises `MissingExtra` unless the SDK and its exporter are installed (found, not loaded:
    the shipper's thread loads them)."""
    from importlib.util import find_spec

    try:
        found = all(find_spec(name) is not None for name in SDK_MODULES)
    except ImportError:
        found = False
    if not found:
        raise MissingExtra(MISSING_EXTRA)
