"""What an export delivered, and the one way to open a shipper: the OpenTelemetry SDK is an extra,
so asking for an export without it is refused, naming the extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from gg.otel.settings import OtelSettings

if TYPE_CHECKING:
    from gg.otel.shipper import Shipper

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


def require_sdk() -> None:
    """Raises `MissingExtra` unless the SDK and its exporter can be imported."""
    try:
        import gg.otel.shipper  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        raise MissingExtra(MISSING_EXTRA) from None


def open_shipper(settings: OtelSettings, notes: TextIO) -> Shipper:
    """A shipper for `settings`; raises `MissingExtra` without the SDK."""
    require_sdk()
    from gg.otel.shipper import Shipper

    return Shipper(settings, notes)
