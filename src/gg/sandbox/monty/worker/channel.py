"""The channel between gg and a Python worker: JSON objects, one per length-prefixed frame, over a
socket the two processes share (`multiprocessing.connection` framing).

Every string crosses as JSON (`ensure_ascii`, so a lone surrogate survives the trip); a value JSON
cannot carry (NaN, a non-string key) is refused by `send` with `ValueError`/`TypeError`. A closed
or broken socket is `ChannelClosed`; nothing to read within a timeout is `TimeoutError`.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any


class ChannelClosed(Exception):
    """The other end went away, or the socket failed."""


class Channel:
    """One end of the channel, over the connected socket `sock` (the channel takes it over)."""

    def __init__(self, sock: socket.socket) -> None:
        self._conn = Connection(sock.detach())

    def send(self, message: Mapping[str, Any]) -> None:
        data = json.dumps(message, allow_nan=False, separators=(",", ":")).encode("ascii")
        try:
            self._conn.send_bytes(data)
        except OSError as error:
            raise ChannelClosed(str(error)) from error

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message; waits at most `timeout` seconds (None: for ever)."""
        try:
            ready = timeout is None or self._conn.poll(max(timeout, 0.0))
            data = self._conn.recv_bytes() if ready else None
        except (EOFError, OSError) as error:
            raise ChannelClosed(str(error) or "the channel closed") from error
        if data is None:
            raise TimeoutError("nothing arrived in time")
        message = json.loads(data)
        if not isinstance(message, dict):
            raise ChannelClosed("a message that is not an object")
        return message  # pyright: ignore[reportUnknownVariableType]

    def close(self) -> None:
        self._conn.close()
