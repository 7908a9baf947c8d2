"""The run's MCP servers as its profiles list them (capability `mcp`): one definition per key.

- `mcp_listing(agents)` is every server an enabled `mcp` of the loaded set lists, once each by
  key, in document order, with its call timeout and where the first profile listing it lists it;
- profiles that list one key define it alike (its command, env, cwd or url, headers, and their
  `timeoutSecs`): each later listing defined otherwise is a finding there, naming the first.
The load judges it over the document as written (`mcp_listing_findings`: each `mcp` capability
that parses on its own, whatever else is wrong), so `gg check` names it beside every other
defect; the launch binds the servers `mcp_listing` lists (`gg.mcp.binding`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gg.config.catalogue import CapabilityId
from gg.config.defects import Finding, Loc, mapping, render_path, sequence
from gg.config.mcp import McpServer
from gg.config.model import Agent, McpCapability

__all__ = ["ListedServer", "mcp_listing", "mcp_listing_findings", "server_found"]


@dataclass(frozen=True)
class ListedServer:
    """One server as the profiles name it: its key, its definition, its call timeout, and where
    the first profile naming it lists it."""

    key: str
    server: McpServer
    timeout_secs: float
    loc: Loc

    @property
    def path(self) -> str:
        return render_path(self.loc)


def mcp_listing(agents: Sequence[Agent]) -> tuple[list[ListedServer], list[Finding]]:
    """Every server the profiles name, once each, and a finding for each listing that defines a
    key otherwise than its first."""
    return _judged(_entries(agents))


def mcp_listing_findings(document: Mapping[str, Any], base: Path) -> list[Finding]:
    """`mcp_listing`'s findings over `document` as written (paths resolve against `base`); an
    `mcp` capability that does not parse is the schema's to name."""
    return _judged(_written_entries(document, base))[1]


def _judged(entries: Iterable[ListedServer]) -> tuple[list[ListedServer], list[Finding]]:
    found: dict[str, ListedServer] = {}
    findings: list[Finding] = []
    for listed in entries:
        earlier = found.setdefault(listed.key, listed)
        if (earlier.server, earlier.timeout_secs) != (listed.server, listed.timeout_secs):
            why = f"defines the server otherwise than {earlier.path}"
            findings.append(Finding(listed.loc, why, server_found(listed.server)))
    return list(found.values()), findings


def server_found(server: McpServer) -> object:
    """What a refusal says it found of a server: its command, or its url."""
    return list(server.command) if server.command is not None else server.url


def _entries(agents: Sequence[Agent]) -> Iterator[ListedServer]:
    for a, agent in enumerate(agents):
        for c, capability in enumerate(agent.capabilities):
            if isinstance(capability, McpCapability) and capability.enabled:
                timeout = capability.params.timeout_secs
                for key, server in capability.params.servers.items():
                    loc = ("agents", a, "capabilities", c, "params", "servers", key)
                    yield ListedServer(key, server, timeout, loc)


def _written_entries(document: Mapping[str, Any], base: Path) -> Iterator[ListedServer]:
    for a, agent in enumerate(sequence(document.get("agents")) or []):
        for c, entry in enumerate(sequence((mapping(agent) or {}).get("capabilities")) or []):
            if (mapping(entry) or {}).get("id") != CapabilityId.MCP.value:
                continue
            try:
                capability = McpCapability.model_validate(entry, context={"base": base})
            except ValidationError:
                continue
            if capability.enabled:
                for key, server in capability.params.servers.items():
                    loc = ("agents", a, "capabilities", c, "params", "servers", key)
                    yield ListedServer(key, server, capability.params.timeout_secs, loc)
