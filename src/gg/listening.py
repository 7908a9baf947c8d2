"""Binding a loopback (or other) address before a command says it serves, so a port another
program holds ends the command with one line naming the port, never a server's own report
(`gg console`, `gg mcp serve --http`).

Rules kept here:
- the socket is bound (with `SO_REUSEADDR`) before anything is served or announced;
- a port another program listens on is named as taken, with the option that chooses another;
  any other failure to bind names the host, the port and the system's reason.
"""

from __future__ import annotations

import errno
import socket


def bound_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port`; `OSError` when the address cannot be bound."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def unbound_reason(command: str, host: str, port: int, failure: OSError) -> str:
    """The one line `command` (`gg console`) ends with when it cannot bind `host`:`port`."""
    if failure.errno == errno.EADDRINUSE:
        return (
            f"{command}: port {port} on {host} is taken (another program listens there); "
            "choose another with --port."
        )
    return f"{command}: cannot bind {host} port {port}: {failure.strerror or failure}."
