"""The console's web app: routes per tab over one read-only run store.

Rules:
- A request whose `Host:` names none of the names the console answers to (`gg.console.hosts`) is
  refused with 421 Misdirected Request before any route reads the store; Starlette's
  TrustedHostMiddleware decides which it is.
- Every response carries a strict Content-Security-Policy: scripts, styles and fetches from
  the console itself only, nothing inline, no frames, no plugins, no other origin.
- An unknown run is a 404 page; a store that cannot be read is a 503 page naming the reason;
  anything else that goes wrong is a 500 page. None of them shows a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gg.console import routes
from gg.console.hosts import LOOPBACK_NAMES
from gg.console.site import Console, console_of
from gg.console.source import RunMissing, StoreUnreadable
from gg.telemetry.location import StoreLocation

STATIC = Path(__file__).parent / "static"
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
MISDIRECTED = (
    "Misdirected request: this console answers only to the names of the address it serves on "
    "(gg console --allow-host NAME adds one).\n"
)
ADMITTED = "gg.console.host_admitted"
log = logging.getLogger("gg.console")


class SecurityHeaders:
    """Adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class KnownHosts:
    """Answers a request only when its `Host:` is one of `names`, else 421 (Starlette's
    TrustedHostMiddleware decides; its refusal is not sent, the 421 is)."""

    def __init__(self, app: ASGIApp, names: Sequence[str]) -> None:
        self.app = app
        self.check = TrustedHostMiddleware(self._admitted, allowed_hosts=list(names), www_redirect=False)

    async def _admitted(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope[ADMITTED] = True
        await self.app(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_once_admitted(message: Message) -> None:
            if scope.get(ADMITTED):
                await send(message)

        await self.check(scope, receive, send_once_admitted)
        if not scope.get(ADMITTED):
            await PlainTextResponse(MISDIRECTED, status_code=421)(scope, receive, send)


async def _missing_run(request: Request, exc: Exception) -> Response:
    return console_of(request).page(
        request, "error.html", 404, title="No such run", detail="This store holds no run", subject=str(exc)
    )


async def _unreadable(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StoreUnreadable)
    detail = f"The run store {exc.path} cannot be read: {exc.reason}."
    return console_of(request).page(request, "error.html", 503, title="Store unreadable", detail=detail)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return console_of(request).page(request, "error.html", exc.status_code, title=str(exc.detail), detail="")


async def _defect(request: Request, exc: Exception) -> Response:
    log.exception("console page failed: %s", request.url.path, exc_info=exc)
    detail = "The console failed to render this page; the details went to the console's log."
    return console_of(request).page(request, "error.html", 500, title="Console error", detail=detail)


def create_app(
    store: Path | StoreLocation, *, poll_secs: float = 0.5, hosts: Sequence[str] = LOOPBACK_NAMES
) -> Starlette:
    """The console over the run store file `store` (which need not exist yet), answering to the
    `Host:` names `hosts` (`gg.console.hosts.answered_names`; the loopback names unless told)."""
    app = Starlette(
        routes=[*routes.ROUTES, Mount("/static", StaticFiles(directory=STATIC), name="static")],
        middleware=[Middleware(SecurityHeaders), Middleware(KnownHosts, names=hosts)],
        exception_handlers={
            RunMissing: _missing_run,
            StoreUnreadable: _unreadable,
            HTTPException: _http_error,
            Exception: _defect,
        },
    )
    app.state.console = Console(store, poll_secs)
    return app
