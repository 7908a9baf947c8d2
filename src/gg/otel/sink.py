"""The live export: a telemetry sink that folds a run's events into spans as they come and hands
each span to the shipper as soon as it closes.

Rules:
- The sink is built before the run starts, only when an export is asked for; without the SDK the
  launch is refused (`MissingExtra`) before the run has an id, so nothing is recorded.
- It is the same fold `gg export otel` runs over the stored run, so both give the same spans.
- Writing never raises for the collector's sake: an unreachable collector is the shipper's one
  warning and its count of dropped spans, said when the sink closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from gg.otel.delivery import require_sdk
from gg.otel.settings import OtelSettings, asked
from gg.otel.shipper import open_shipper
from gg.otel.tree import SpanTree

if TYPE_CHECKING:
    from gg.otel.shipper import Shipper
    from gg.telemetry.events import Event


class OtelSink:
    """Spans of one run, shipped live."""

    def __init__(self, run_id: str, settings: OtelSettings, shipper: Shipper) -> None:
        self._tree = SpanTree(run_id, content=settings.content, conventions=settings.conventions)
        self._shipper = shipper

    def write(self, event: Event) -> None:
        spans = self._tree.feed(event.to_wire())
        if spans:
            self._shipper.ship(spans)

    def close(self) -> None:
        self._shipper.ship(self._tree.finish())
        self._shipper.close()


def asked_settings(environ: Mapping[str, str], *, flag: bool, content: bool) -> OtelSettings | None:
    """The export's settings when one is asked for (a flag, or `GG_OTEL`), else None; raises
    `MissingExtra` when one is asked for without the SDK."""
    if not asked(environ, flag=flag, content=content):
        return None
    require_sdk()
    return OtelSettings.from_environment(environ, content=content)


def live_sink(run_id: str, settings: OtelSettings, notes: TextIO) -> OtelSink:
    """The sink for a run; raises `MissingExtra` without the SDK."""
    return OtelSink(run_id, settings, open_shipper(settings, notes))
