"""How the console is served: uvicorn over HTTP/1.1 (h11), a request's head bounded.

Rules:
- A request's head (its request line and headers) must end within `MAX_REQUEST_HEAD` bytes of
  what the console holds unread (h11's bound on an incomplete event). A request line still
  unended past it is answered 414 URI Too Long, saying that a long query goes in the Query page's
  form (sent in the request's body, never in the address); headers still unended past it, 431.
  Anything else h11 cannot read is uvicorn's 400.
- A refused request is answered whole before the connection ends: the answer is sent, the
  console stops writing, and reads and drops what the client still sends (at most `LINGER_SECS`)
  so that closing never resets the connection under an answer the client has not read yet.
- The refusals are answered before any route runs, so before the `Host:` check (421): they read
  nothing of the store and say nothing of it. They carry the console's security headers.
"""

from __future__ import annotations

from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from gg.console.app import SECURITY_HEADERS

MAX_REQUEST_HEAD = 64 * 1024  # bytes of request line and headers
LINGER_SECS = 10.0  # how long a refused request's rest is read and dropped, at most
URI_TOO_LONG = (
    "This address is too long for the console (its request line is over {bound} KiB). A long "
    "query goes in the Query page's form, which sends it in the request's body: open /query, "
    "paste the query there and press Run.\n"
)
HEADERS_TOO_LARGE = "This request's headers are over {bound} KiB; the console reads no more.\n"


def server_config(app: ASGIApp, **settings: Any) -> uvicorn.Config:
    """uvicorn's settings for the console `app` (see the module rules), with `settings` (host,
    port, shutdown's grace, ...) as the caller gives them."""
    return uvicorn.Config(app, http=BoundedHead, h11_max_incomplete_event_size=MAX_REQUEST_HEAD, **settings)


class BoundedHead(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, answering a head over `MAX_REQUEST_HEAD` in words (414 or
    431) and lingering until the client has sent the rest."""

    lingering = False

    def data_received(self, data: bytes) -> None:
        if not self.lingering:  # once refused, what follows is read and dropped
            super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        head, _ = self.conn.trailing_data
        if len(head) <= MAX_REQUEST_HEAD:
            super().send_400_response(msg)
            return
        line_ended = b"\n" in head
        status = 431 if line_ended else 414
        text = (HEADERS_TOO_LARGE if line_ended else URI_TOO_LONG).format(bound=MAX_REQUEST_HEAD // 1024)
        self.logger.warning(
            "refused a request whose %s", "headers are too large" if line_ended else "URI is too long"
        )
        self._refuse(status, text)

    def _refuse(self, status: int, text: str) -> None:
        body = text.encode()
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *SECURITY_HEADERS,
        ]
        self.transport.write(self.conn.send(h11.Response(status_code=status, headers=headers)) or b"")
        self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
        self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        self.lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECS, self.transport.close)

    def eof_received(self) -> None:
        if self.lingering:  # the client sent all and read the answer: the connection ends
            self.transport.close()
