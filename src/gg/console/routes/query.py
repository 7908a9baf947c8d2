"""The Query page: one SQL read over the run store's views, its rows and a chart of a column
(`gg.console.query_page`).

Rules:
- A GET carries the query in its URL (`?sql=&chart=&label=`): the page's link, which a reader
  shares. The page's form sends a query by POST, in the request's body, so a query of any length
  up to `MAX_FORM_BYTES` is answered: one whose link fits `MAX_LINK_BYTES` is sent on to that link
  (303 See Other), a longer one answered at once, the page saying it is too long to link.
- A form over `MAX_FORM_BYTES` is refused 413 before it is read further; an address too long for
  the server is its 414 (`gg.console.server`).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qsl, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from gg.console.query_page import query_page
from gg.console.site import console_of
from gg.record.query_bounds import DEFAULT_ROWS, DEFAULT_SECONDS

REFUSED = 400  # a query refused or SQLite could not run: the reader's to change
TOO_LARGE = 413
MAX_FORM_BYTES = 8 * 1024 * 1024  # the query form's body
MAX_LINK_BYTES = 8 * 1024  # the longest link to a query the console hands out
FIELDS = ("sql", "chart", "label")


async def query(request: Request) -> Response:
    if request.method != "POST":
        return await run_in_threadpool(_answered, request, request.query_params, str(request.url))
    form = await _form(request)
    if form is None:
        detail = (
            f"The query form holds more than {MAX_FORM_BYTES // (1024 * 1024)} MiB; the console reads no more"
        )
        return console_of(request).page(
            request, "error.html", TOO_LARGE, title="Query too long", detail=detail
        )
    link = "/query?" + urlencode(form)
    if len(link) <= MAX_LINK_BYTES:
        return RedirectResponse(link, status_code=303)
    return await run_in_threadpool(_answered, request, form, None)


def _answered(request: Request, params: Mapping[str, str], link: str | None) -> Response:
    console = console_of(request)
    model = query_page(console.source.location, params)
    return console.page(
        request,
        "query.html",
        REFUSED if model.error is not None else 200,
        page=model,
        link=link,
        store=console.source.location.shown,
        rows_bound=DEFAULT_ROWS,
        seconds_bound=f"{DEFAULT_SECONDS:g}",
    )


async def _form(request: Request) -> dict[str, str] | None:
    """The form's fields the page reads, in their order; None when its body is over the bound."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_FORM_BYTES:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            return None
    fields = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    return {name: fields[name] for name in FIELDS if fields.get(name)}


ROUTES = [Route("/query", query, methods=["GET", "POST"], name="query")]
