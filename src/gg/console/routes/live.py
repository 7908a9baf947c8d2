"""Server-sent events: a run (or the store) changed, so the page refreshes its live region.

The stream polls the store every `poll_secs` (a read of one row), sends `changed` with the new
event count when it moved, `ended` once the run stopped running, and a comment now and then so
a proxy keeps the connection. It ends when the client goes or the run has ended.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import anyio
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gg.console.site import console_of
from gg.console.source import StoreUnreadable
from gg.record.runs import RUNNING, shown_status

KEEPALIVE_SECS = 15.0


def _stream(request: Request, probe: Callable[[], tuple[str, bool]], seen: str) -> StreamingResponse:
    poll = console_of(request).poll_secs

    async def events() -> AsyncIterator[str]:
        last, quiet = seen, 0.0
        while not await request.is_disconnected():
            try:
                token, running = await anyio.to_thread.run_sync(probe)
            except (StoreUnreadable, LookupError):
                yield "event: ended\ndata: unreadable\n\n"
                return
            if token != last:
                last, quiet = token, 0.0
                yield f"event: changed\ndata: {token}\n\n"
            if not running:
                yield "event: ended\ndata: done\n\n"
                return
            await anyio.sleep(poll)
            quiet += poll
            if quiet >= KEEPALIVE_SECS:
                quiet = 0.0
                yield ": still here\n\n"

    headers = {"cache-control": "no-store", "x-accel-buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


async def run_live(request: Request) -> Response:
    source = console_of(request).source
    run_id = request.path_params["run_id"]

    def probe() -> tuple[str, bool]:
        row = source.run(run_id)
        return str(row.events), shown_status(row) == RUNNING

    return _stream(request, probe, request.query_params.get("seen", ""))


async def store_live(request: Request) -> Response:
    source = console_of(request).source

    def probe() -> tuple[str, bool]:
        return source.state().token, True

    return _stream(request, probe, request.query_params.get("seen", ""))


ROUTES = [
    Route("/runs/{run_id}/live", run_live, name="run_live"),
    Route("/live", store_live, name="store_live"),
]
