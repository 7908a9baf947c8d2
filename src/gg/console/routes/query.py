"""The Query page: one SQL read over the run store's views, its rows and a chart of a column,
all carried by the page's URL (`gg.console.query_page`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console.query_page import query_page
from gg.console.site import console_of
from gg.record.query_bounds import DEFAULT_ROWS, DEFAULT_SECONDS

REFUSED = 400  # a query refused or SQLite could not run: the reader's to change


def query(request: Request) -> Response:
    console = console_of(request)
    model = query_page(console.source.location, request.query_params)
    status = REFUSED if model.error is not None else 200
    return console.page(
        request,
        "query.html",
        status,
        page=model,
        store=console.source.location.shown,
        rows_bound=DEFAULT_ROWS,
        seconds_bound=f"{DEFAULT_SECONDS:g}",
    )


ROUTES = [Route("/query", query, name="query")]
