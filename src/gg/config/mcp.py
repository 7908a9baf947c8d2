"""The `mcp` capability: MCP servers whose tools a profile's programs call as SDK modules.

    {"id": "mcp", "params": {"servers": {"notes": {"command": ["python", "notes.py"]},
                                         "search": {"url": "http://127.0.0.1:9000/mcp"}},
                             "timeoutSecs": 60}}

Shape rules enforced here (what a server serves is read at launch, `gg.mcp`):
- `servers` names at least one server, each under a key of its own (the module it becomes is
  spelled from the key by the naming rule of `gg.mcp.naming`); a key holds no control or bidi
  character;
- a server is started (`command`: the program and its arguments, at least the program; `env`,
  variables set for it; `cwd`, its working folder, relative to the config file's folder) or
  reached over streamable HTTP (`url`: an `http://` or `https://` URL; `headers`, sent with every
  request); a server names one of `command` and `url`;
- `timeoutSecs` is how long one call may wait for its server: above 0 and at most a day, 60 unless
  written. Each listed server grants its programs `mcp:<key>` (`Agent.capability_ids`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from gg.config.catalogue import DEFAULT_MCP_TIMEOUT_SECS, MAX_TIMEOUT_SECS, CapabilityId
from gg.config.defects import Finding, Loc, mapping
from gg.config.part import Enabled, Part
from gg.config.values import Name, Number, Place, Text

__all__ = ["McpCapability", "McpParams", "McpServer", "mcp_servers_findings"]

ServerKey = Annotated[str, Name(described="the server's name, which names its module", max_chars=100)]
Argument = Annotated[str, Field(max_length=100_000)]
Variable = Annotated[str, Text(r"[A-Za-z_][A-Za-z0-9_]*", "an environment variable name")]
HeaderName = Annotated[str, Text(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", "an HTTP header name")]


class McpServer(Part):
    """One server: started by gg (`command`, `env`, `cwd`) or reached over streamable HTTP (`url`,
    `headers`); which one is `mcp_servers_findings`' rule."""

    command: tuple[Argument, ...] | None = Field(default=None, json_schema_extra={"minItems": 1})
    env: dict[Variable, str] | None = None
    cwd: Annotated[Path, Place("folder")] | None = None
    url: Annotated[str, Text(r"https?://\S+", "an http:// or https:// URL", max_chars=2000)] | None = None
    headers: dict[HeaderName, str] | None = None

    @property
    def started(self) -> bool:
        """Whether gg starts this server (else it reaches it at its `url`)."""
        return self.command is not None


class McpParams(Part):
    """The servers, by key, and how long one call may wait for its server."""

    servers: dict[ServerKey, McpServer] = Field(json_schema_extra={"minProperties": 1})
    timeout_secs: Annotated[float, Number(above=0, most=MAX_TIMEOUT_SECS, what="a number of seconds")] = (
        DEFAULT_MCP_TIMEOUT_SECS
    )


class McpCapability(Part):
    """MCP servers as modules: each server in `params.servers`, gated one by one."""

    id: Literal[CapabilityId.MCP]
    enabled: Enabled = True
    params: McpParams


_STARTED_ONLY = ("env", "cwd")
_REACHED_ONLY = ("headers",)


def mcp_servers_findings(servers: object, loc: Loc) -> Iterator[Finding]:
    """`params.servers` (at `loc`, the capability's `params`) names at least one server; each names
    one of `command` and `url`, and only the keys of its kind."""
    named = mapping(servers)
    if named is None:
        return
    if not named:
        yield Finding((*loc, "servers"), "must name at least one MCP server")
    for key, entry in named.items():
        server = mapping(entry)
        if server is None:
            continue
        at = (*loc, "servers", key)
        started, reached = "command" in server, "url" in server
        if started == reached:
            yield Finding(at, "must name one of `command` (a server gg starts) and `url` (one it reaches)")
            continue
        for wrong in _REACHED_ONLY if started else _STARTED_ONLY:
            if wrong in server:
                kind = "a server gg starts" if started else "a server reached at its url"
                yield Finding((*at, wrong), f"is not read for {kind}")
        if started and isinstance(server.get("command"), list) and not server["command"]:
            yield Finding((*at, "command"), "must hold at least the program to start")
