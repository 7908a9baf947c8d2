"""What every route of the console shares: the store, the templates, the folded runs.

A run is folded once per event count and kept while the count holds (a few runs at a time);
a page asked for with the live header renders its live region only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse

from gg.console.index import RunIndex, build_index
from gg.console.render import environment
from gg.console.source import RunSource
from gg.record.runs import shown_status
from gg.telemetry.location import StoreLocation

KEPT_RUNS = 4
LIVE_HEADER = "x-console-live"


class Console:
    """What every route shares: the store, the templates, the folded runs."""

    def __init__(self, store: Path | StoreLocation, poll_secs: float) -> None:
        self.source = RunSource(store)
        self.templates = environment()
        for name in self.templates.list_templates(extensions=["html"]):
            self.templates.get_template(name)  # compiled once, as the console starts
        self.poll_secs = poll_secs
        self._runs: OrderedDict[str, tuple[tuple[int, str], RunIndex]] = OrderedDict()
        self._lock = threading.Lock()

    def index(self, run_id: str) -> RunIndex:
        """The run folded at its current event count."""
        row = self.source.run(run_id)
        key = (row.events, shown_status(row))
        with self._lock:
            kept = self._runs.get(run_id)
            if kept is not None and kept[0] == key:
                self._runs.move_to_end(run_id)
                return kept[1]
        folded = build_index(row.id, key[1], self.source.events(row.id))
        with self._lock:
            self._runs[run_id] = (key, folded)
            while len(self._runs) > KEPT_RUNS:
                self._runs.popitem(last=False)
        return folded

    def page(self, request: Request, template: str, status_code: int = 200, **values: Any) -> HTMLResponse:
        partial = request.headers.get(LIVE_HEADER) == "1"
        values.setdefault("live_url", None)
        html = self.templates.get_template(template).render(request=request, partial=partial, **values)
        return HTMLResponse(html, status_code=status_code)


def console_of(request: Request) -> Console:
    return request.app.state.console
