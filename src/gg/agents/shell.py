"""An agent's shell, opened at launch: its jail, or a refusal naming why there can be none.

Rules:
- an agent whose profile enables `shell` gets a jail over its workspace before its first turn;
  a host that cannot jail commands refuses the launch (`ConfigError`), naming the reason: a
  command never runs unjailed;
- gg's own package, the Python environment it runs in and the run store (`.gg/` under the
  working directory) are hidden from the jail even where it would otherwise show them;
- the launch log says, for each such agent, what its shell reaches; sharing the host's network
  (`network: true`) is said as a warning.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gg.config.model import Agent as AgentProfile
from gg.config.model import ShellParams
from gg.errors import ConfigDefect, ConfigError
from gg.loop.stream import AgentStream
from gg.sandbox.jail import Jail, JailPolicy, JailUnavailable, open_jail
from gg.sdk.shell import ShellAccess
from gg.telemetry.layout import GG_DIR


def open_shell(profile: AgentProfile, workspace: Path, stream: AgentStream) -> ShellAccess[Jail] | None:
    """The agent's shell, or None when its profile does not enable one. Raises `ConfigError`
    when this host cannot jail its commands."""
    params = profile.shell
    if params is None:
        return None
    policy = JailPolicy(
        workspace.resolve(),
        params.max_memory_bytes,
        params.network,
        hidden_from_jails(),
        params.max_file_bytes,
    )
    try:
        jail = open_jail(policy)
    except JailUnavailable as refusal:
        reason = f"cannot be served here, where shell commands run only in a jail: {refusal.reason}"
        defect = ConfigDefect(f"agent {profile.slug}: capability shell", "enabled", reason)
        raise ConfigError("shell", [defect]) from None
    _log(stream, params)
    return ShellAccess(jail, params.timeout_secs)


def hidden_from_jails() -> tuple[Path, ...]:
    """gg's package, its Python environment (a virtual one; never the system's), the run store."""
    hidden = [Path(__file__).parents[1], Path.cwd() / GG_DIR]
    if sys.prefix != sys.base_prefix:
        hidden.append(Path(sys.prefix))
    return tuple(hidden)


def _log(stream: AgentStream, params: ShellParams) -> None:
    fields = {
        "timeoutSecs": params.timeout_secs,
        "maxMemoryBytes": params.max_memory_bytes,
        "maxFileBytes": params.max_file_bytes,
        "network": params.network,
    }
    jail = f"{stream.agent_id} runs shell commands in a jail whose only writable place is its workspace"
    if params.network:
        stream.warn(f"{jail}, sharing the host's network (network: true)", **fields)
    else:
        stream.log_info(f"{jail}, with no network", **fields)
