"""The host families a run serves (`gg.sdk.host`) and its MCP servers' modules (`gg.mcp`): bound
before its first turn, and named in its launch log.

Binding reads the host lines of every journal the run's agents replay, so a family (or an MCP
server's module) only the recording holds is answered from it, each agent's calls from its own
recorded answers; it records each family's declaration and every answer into the journal being
written (`--record`), and tells the operator, with its traceback, of every host function that
failed. A family or server that cannot be served is the run's refusal, naming every entry at
fault. MCP servers share the run's one event loop with the async host functions; a profile that
enables `mcp` without the `mcp` extra installed refuses the launch, saying how to install it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from gg.config.model import CapabilitySet
from gg.errors import ConfigDefect, ConfigError
from gg.loop.stream import AgentStream
from gg.providers.recording import JournalRecorder
from gg.sdk.host.binding import HostBinding, HostServices, bind_host_families
from gg.sdk.host.family import HostFamily
from gg.sdk.host.recording import read_host_recordings
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import Log, LogLevel

MCP_EXTRA = "the mcp capability needs the MCP SDK: pip install 'gg[mcp]'"


def bind_run_families(
    capability_set: CapabilitySet,
    telemetry: Telemetry,
    given: Sequence[HostFamily],
    recorder: JournalRecorder | None,
    replayed: Sequence[Path],
    base: Path = Path(),
    recorded_first: bool = False,
) -> tuple[HostBinding, ConfigError | None]:
    """The run's host functions and MCP modules, or the refusal naming every family or server
    that cannot be served; `base` is the config file's folder (where a started server runs).
    `recorded_first` answers every family the replayed recording declares from it, even one that
    imports (a playback)."""

    def report(agent_id: str, turn: int, message: str, trace: str | None) -> None:
        fields = {} if trace is None else {"traceback": trace}
        telemetry.emit(agent_id, turn, Log(level=LogLevel.ERROR.value, message=message, fields=fields))

    host = HostBinding()
    try:
        recording = dataclasses.replace(read_host_recordings(replayed), first=recorded_first)
        services = HostServices(report, None if recorder is None else recorder.record_host, recording)
        host = bind_host_families(capability_set, given, services)
        return _with_mcp(host, capability_set, services, base), None
    except ConfigError as refusal:
        host.close()
        return HostBinding(), refusal


def _with_mcp(
    host: HostBinding, capability_set: CapabilitySet, services: HostServices, base: Path
) -> HostBinding:
    """`host` with the modules of the run's MCP servers after its families. Raises `ConfigError`."""
    if not any(agent.mcp is not None for agent in capability_set.agents):
        return host
    try:
        from gg.mcp.binding import bind_mcp_servers, listed_servers
    except ImportError:
        raise ConfigError("MCP servers", [ConfigDefect("capabilities", "mcp", MCP_EXTRA)]) from None
    named = host.capability_set or capability_set
    families = [family for agent in named.agents for family in agent.host_families]
    records = [decl.name for decl in host.types]
    mcp = bind_mcp_servers(
        listed_servers(capability_set), base.resolve(), host.loop, services, families, records
    )
    return dataclasses.replace(
        host,
        operations=(*host.operations, *mcp.operations),
        types=(*host.types, *mcp.types),
        briefs={**host.briefs, **mcp.briefs},
        replayed=(*host.replayed, *(mcp.modules[key] for key in mcp.replayed)),
        closing=(*host.closing, mcp.close),
    )


def config_folder(config_path: Path) -> Path:
    """The folder a capability set's relative paths start at: the folder given, or the file's."""
    return config_path if config_path.is_dir() else config_path.parent


def log_run_families(stream: AgentStream, host: HostBinding) -> None:
    """The launch log: families handed to the run that no profile lists, and those answered from
    the recording."""
    if host.unused:
        stream.warn(
            f"no profile lists the host families {', '.join(host.unused)}", families=list(host.unused)
        )
    if host.replayed:
        names = ", ".join(host.replayed)
        stream.log_info(f"host families answered from the recording: {names}", families=list(host.replayed))
