"""Which names the console answers to in a request's `Host:`, so that no page of another site can
read it by DNS rebinding (pointing its own name at this machine). Pure.

Rules:
- A loopback bind (`127.0.0.1`, `::1`, `localhost`) answers to `127.0.0.1`, `localhost` and
  `[::1]`, and to the address it binds; a bind to every address (`0.0.0.0`, `::`) answers to
  those loopback names; any other bind answers to the address it binds. Each name the operator
  allows (`--allow-host`: the name a proxy or a browser reaches it by) is added.
- The port is not compared: `localhost:8765` and `localhost` are the same name.
- An allowed name is a host name (letters, digits, hyphens, dots) or an IP address; an IPv6
  address is written in brackets, as a `Host:` header carries it. Nothing else is a name: a
  wildcard would turn the check off.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
EVERY_ADDRESS = ("0.0.0.0", "::")
_HOST_NAME = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*"
)


class NotAHostName(ValueError):
    """A name `--allow-host` was given that is no host name or address."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(text: str) -> str:
    """`text` as a `Host:` header names it (lower case, an IPv6 address in brackets); raises
    `NotAHostName` when it is neither a host name nor an IP address."""
    bare = text.removeprefix("[").removesuffix("]") if text.startswith("[") else text
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        if text.startswith("[") or not _HOST_NAME.fullmatch(text):
            raise NotAHostName(
                f"`{text}` is no host name or IP address (write a name such as console.example.org, "
                "or an address such as 10.0.0.5 or [fd00::5]; no port, no wildcard)"
            ) from None
        return text.lower()
    return f"[{address.compressed}]" if address.version == 6 else address.compressed


def answered_names(bound: str, allowed: Sequence[str] = ()) -> tuple[str, ...]:
    """The names the console bound to `bound` answers to, `allowed` added (see the module rules)."""
    names: list[str] = []
    if is_loopback(bound) or bound in EVERY_ADDRESS:
        names.extend(LOOPBACK_NAMES)
    if bound not in EVERY_ADDRESS:
        names.append(host_name(bound))
    names.extend(host_name(name) for name in allowed)
    return tuple(dict.fromkeys(names))
