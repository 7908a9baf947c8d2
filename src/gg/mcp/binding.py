"""A run's MCP servers, bound once at launch: each server the profiles name becomes a module of
host functions (`gg.sdk.host`), gated `mcp:<key>`, served through the membrane like any other.

Rules kept here:
- a server is named by its key in every profile that lists it; profiles that list one key must
  define it alike (its command, env, cwd or url, headers, and their `timeoutSecs`); the agents of
  the run share one connection to it;
- its module is named from its key by the naming rule (`gg.mcp.naming`), beside gg's own modules
  and the run's host families, in the order the profiles list the servers; its records take no
  name gg's own records, the host families' or an earlier module's hold;
- at launch each server is started or reached and its tools listed, every server at once; one
  that cannot be, or that lists no tool, refuses the launch naming it (`ConfigError`, every
  server at fault at once);
- a session replayed from a recording that holds a server's module (its `hostFamily` line) is
  answered from the recording: the server is neither started nor reached;
- each module's declaration is recorded (`hostFamily`) when the run writes a recording, as a host
  family's is;
- `McpBinding.close` closes every connection (a started server's whole process group dies with it).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gg.config.catalogue import MCP_SERVER_GRANT
from gg.config.defects import render_found, render_path
from gg.config.mcp import McpServer
from gg.config.mcp_listing import ListedServer as Listed
from gg.config.mcp_listing import mcp_listing, server_found
from gg.config.model import CapabilitySet
from gg.errors import ConfigDefect, ConfigError
from gg.mcp.calling import ServerSeat, handler_of
from gg.mcp.connection import OPEN_TIMEOUT_SECS, Connection, Unreachable
from gg.mcp.naming import NameKind, spelled_apart
from gg.mcp.schema import ANY
from gg.mcp.tools import ServedTool, ToolSchema, declare_module
from gg.sdk.host.answers import ReplayedAnswers
from gg.sdk.host.binding import HostServices
from gg.sdk.host.calling import FunctionLoop
from gg.sdk.host.declaration import FamilyDeclaration
from gg.sdk.host.family import RESERVED_FAMILIES
from gg.sdk.host.operations import host_entries
from gg.sdk.host.recording import family_line
from gg.sdk.records import SDK_TYPES
from gg.sdk.registry import Capability, Operation
from gg.sdk.sighting import Sightings
from gg.sdk.types import TypeDecl

LAUNCH_SECS = 2 * OPEN_TIMEOUT_SECS  # the servers open side by side, then list: each step waits that long

SOURCE = "MCP servers"
_OWN_RECORDS = frozenset(decl.name for decl in SDK_TYPES)  # names no MCP record takes

Served = tuple[FamilyDeclaration, ServerSeat, dict[str, ServedTool]]


@dataclass
class McpBinding:
    """What the run serves of its MCP servers, and the connections to close with it."""

    operations: tuple[Operation, ...] = ()
    types: tuple[TypeDecl, ...] = ()
    briefs: dict[str, str] = field(default_factory=dict[str, str])
    modules: dict[str, str] = field(default_factory=dict[str, str])  # server key -> module
    replayed: tuple[str, ...] = ()  # servers answered from the recording
    connections: tuple[Connection, ...] = ()
    loop: FunctionLoop | None = None

    def close(self) -> None:
        if self.loop is not None and self.connections:
            self.loop.run(_close_all(self.connections), LAUNCH_SECS)


def listed_servers(capability_set: CapabilitySet) -> list[Listed]:
    """Every server the profiles name, once each, in document order (`gg.config.mcp_listing`, whose
    rule the load already holds the set to). Raises `ConfigError` naming every key two profiles
    define otherwise."""
    listed, findings = mcp_listing(capability_set.agents)
    if findings:
        raise ConfigError(
            SOURCE, [ConfigDefect(render_path(f.loc), render_found(f.found), f.reason) for f in findings]
        )
    return listed


def bind_mcp_servers(
    listed: Sequence[Listed],
    base: Path,
    loop: FunctionLoop,
    services: HostServices,
    taken: Iterable[str] = (),
    records: Iterable[str] = (),
) -> McpBinding:
    """The run's MCP modules (see the module rules); `taken` are the run's host family names,
    `records` the names of their records, and `base` the folder a started server runs in when it
    names none. Raises `ConfigError`."""
    keys = [server.key for server in listed]
    modules = dict(zip(keys, spelled_apart(keys, NameKind.MODULE, {*RESERVED_FAMILIES, *taken}), strict=True))
    recorded = {key: services.recording.named(modules[key]) for key in keys}
    connections = {s.key: Connection(s.key, s.server, base) for s in listed if recorded[s.key] is None}
    tools = _opened(connections, [s for s in listed if s.key in connections], loop)
    sightings, answers = Sightings(), ReplayedAnswers.of(services.recording.answers)
    served: list[Served] = []
    named = set(_OWN_RECORDS) | set(records)  # record names no later module may take
    for server in listed:
        module, found = modules[server.key], recorded[server.key]
        if found is None:
            declaration, tools_served = declare_module(
                module, server.key, tools[server.key], frozenset(named)
            )
        else:
            declaration, tools_served = found.declaration, ()
        named |= {record.name for record in declaration.records()}
        connection = connections.get(server.key)
        seat = ServerSeat(
            server.key, module, connection, loop, server.timeout_secs, sightings, services, answers
        )
        served.append((declaration, seat, {t.declaration.name: t for t in tools_served}))
        if services.record is not None:
            services.record(family_line(declaration, None), None)
    replayed = tuple(key for key in keys if recorded[key] is not None)
    binding = McpBinding(modules=modules, connections=tuple(connections.values()), loop=loop)
    return _filled(binding, served, sightings, replayed)


def _opened(
    connections: dict[str, Connection], live: Sequence[Listed], loop: FunctionLoop
) -> dict[str, list[ToolSchema]]:
    """Every live server's tools, listed at once. Raises `ConfigError` naming each server that
    cannot be reached or lists no tool, once every connection is closed."""
    found = loop.run(_listed_tools(connections), LAUNCH_SECS)
    defects: list[ConfigDefect] = []
    for server in live:
        tools = found[server.key]
        if isinstance(tools, Unreachable):
            defects.append(ConfigDefect(server.path, _found(server.server), f"cannot be reached: {tools}"))
        elif not tools:
            defects.append(ConfigDefect(server.path, _found(server.server), "lists no tool"))
    if defects:
        loop.run(_close_all(connections.values()), LAUNCH_SECS)
        raise ConfigError(SOURCE, defects)
    return {key: tools for key, tools in found.items() if not isinstance(tools, Unreachable)}


def _filled(
    binding: McpBinding,
    served: list[Served],
    sightings: Sightings,
    replayed: tuple[str, ...],
) -> McpBinding:
    entries = host_entries(
        [(declaration, handler_of(seat, by_name)) for declaration, seat, by_name in served]
    )
    gates = {seat.module: Capability(MCP_SERVER_GRANT.format(server=seat.key)) for _, seat, _ in served}
    unknown = {f"{d.name}.{f.name}" for d, _, _ in served for f in d.functions if f.result == ANY}
    binding.operations = tuple(
        dataclasses.replace(op, gate=gates[op.family], sightings=sightings if op.wire in unknown else None)
        for op in entries.operations
    )
    binding.types, binding.briefs, binding.replayed = entries.types, dict(entries.briefs), replayed
    return binding


async def _listed_tools(connections: dict[str, Connection]) -> dict[str, list[ToolSchema] | Unreachable]:
    keys = list(connections)
    found = await asyncio.gather(*(connections[key].open() for key in keys), return_exceptions=True)
    listed: dict[str, list[ToolSchema] | Unreachable] = {}
    for key, tools in zip(keys, found, strict=True):
        if isinstance(tools, BaseException) and not isinstance(tools, Unreachable):
            tools = Unreachable(f"{type(tools).__name__}: {tools}")
        listed[key] = tools
    return listed


async def _close_all(connections: Iterable[Connection]) -> None:
    await asyncio.gather(*(connection.close() for connection in connections), return_exceptions=True)


def _found(server: McpServer) -> str:
    """What a refusal says it found: the command, or the url."""
    return render_found(server_found(server))
