"""The capability set as loaded: frozen pydantic models, keys camelCase in the document.

Shape rules enforced here (cross-field rules live in `rules.py`):
- every object refuses keys it does not declare, so a typo never passes silently;
- `limits` ceilings are all optional; a ceiling nobody wrote is not armed;
- an agent lists capabilities by `id`; `enabled` defaults to true; `params` are judged whenever
  written, even when the capability is switched off;
- paths (`workspace`, a replay `journal`) resolve against the config file's folder and must exist;
  the workspace defaults to the folder `workspace` beside the config file; the skills `dir` is a
  folder of the workspace (judged once the workspace is known: `gg.config.skills`);
- `agents[0]` is the root, where the run starts; a profile with `fsm` enabled is a machine (a
  shell with no model of its own, whose states other profiles run);
- `limits` are `gg.config.limits`' (ceilings, `maxParallel`, what bounds each model request);
Accessors (`root`, `agent.responses_as_code`, `agent.program_library`, `agent.shell`,
`agent.max_depth`, `agent.machine`, `agent.memories`, `limits.error_rate`) give typed values;
`None` means "not enabled" or "not armed".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from gg.config.catalogue import (
    DEFAULT_LANGUAGE,
    DEFAULT_MAX_MEMORY_BYTES,
    DEFAULT_TIMEOUT_SECS,
    DEFAULT_WORKSPACE,
    HOST_FAMILY_GRANT,
    ID_LENGTH_MAX,
    ID_LENGTH_MIN,
    MAX_MAX_MEMORY_BYTES,
    MAX_TIMEOUT_SECS,
    MCP_SERVER_GRANT,
    MIN_MAX_MEMORY_BYTES,
    OPERATION_ENTRY,
    CacheLifetime,
    CapabilityId,
    Language,
    Provider,
    Role,
)
from gg.config.ceilings import Ceilings
from gg.config.delegation import (
    ExecCapability,
    ForkCapability,
    FsmCapability,
    FsmParams,
    RosterEntry,
    Slug,
    SubagentsCapability,
)
from gg.config.hooks.declaration import HookDeclaration
from gg.config.host_functions import HostFunctionsCapability, HostFunctionsParams
from gg.config.limits import ErrorRateCeiling, Limits, ModelCallLimits
from gg.config.mcp import McpCapability, McpParams
from gg.config.memories.capability import MemoriesCapability
from gg.config.memories.profile import MemoryProfile
from gg.config.modules import AgentManagedContextCapability, ProjectManagementCapability, TasksCapability
from gg.config.part import Enabled, Part
from gg.config.shell import ShellCapability, ShellParams
from gg.config.skills import BUILT_IN_FAMILIES, SkillsCapability
from gg.config.values import Choice, Name, Number, Place, Text, Whole

__all__ = [
    "ID_LENGTH",
    "KEEP",
    "Agent",
    "Capability",
    "CapabilitySet",
    "ErrorRateCeiling",
    "HostFunctionsCapability",
    "HostFunctionsParams",
    "LibrarySettings",
    "Limits",
    "McpCapability",
    "McpParams",
    "ModelBinding",
    "ModelCallLimits",
    "ProgramLibraryCapability",
    "ProgramLibraryParams",
    "ResponsesAsCodeCapability",
    "ResponsesAsCodeParams",
    "ShellCapability",
    "ShellParams",
    "SkillsCapability",
]

KEEP = Whole(0, note="0 keeps every program")
ID_LENGTH = Whole(ID_LENGTH_MIN, ID_LENGTH_MAX)


class ModelBinding(Part):
    """Which model answers an agent, through which provider. `pricing` names the price-table
    model its replies cost as (`gpt-4o`, or `openai:gpt-4o`); without it they are priced only at
    the provider's own endpoint."""

    provider: Annotated[Provider, Choice(Provider)]
    model: Annotated[str, Text()] | None = None
    journal: Annotated[Path, Place("file")] | None = None
    base_url: Annotated[str, Text(r"https?://\S+", "an http:// or https:// URL", max_chars=2000)] | None = (
        None
    )
    api_key_env: Annotated[str, Text(r"[A-Za-z_][A-Za-z0-9_]*", "an environment variable name")] | None = None
    pricing: Annotated[str, Text()] | None = None
    max_output_tokens: Annotated[int, Whole(1)] | None = None
    temperature: Annotated[float, Number(least=0, most=2)] | None = None
    cache_lifetime: Annotated[CacheLifetime, Choice(CacheLifetime)] | None = None


class ResponsesAsCodeParams(Part):
    """Per-program sandbox ceilings and the agent's language; neither ceiling is clamped."""

    language: Annotated[Language, Choice(Language)] = DEFAULT_LANGUAGE
    timeout_secs: Annotated[float, Number(above=0, most=MAX_TIMEOUT_SECS, what="a number of seconds")] = (
        DEFAULT_TIMEOUT_SECS
    )
    max_memory_bytes: Annotated[
        int,
        Whole(
            MIN_MAX_MEMORY_BYTES,
            MAX_MAX_MEMORY_BYTES,
            what="a whole number of bytes",
            note="the engines need 16 MiB and are given at most 1 TiB",
        ),
    ] = DEFAULT_MAX_MEMORY_BYTES

    @property
    def ceilings(self) -> Ceilings:
        return Ceilings(timeout_secs=self.timeout_secs, max_memory_bytes=self.max_memory_bytes)


class ProgramLibraryParams(Part):
    """As written; an enabled library must write both (checked in `rules.py`)."""

    keep: Annotated[int, KEEP] | None = None
    id_length: Annotated[int, ID_LENGTH] | None = None


@dataclass(frozen=True)
class LibrarySettings:
    """An enabled library: how many recent programs it keeps (0: all) and its ids' length."""

    keep: int
    id_length: int

    @property
    def keeps_every_program(self) -> bool:
        return self.keep == 0


class ResponsesAsCodeCapability(Part):
    """Code mode, the only mode: every agent lists it, enabled."""

    id: Literal[CapabilityId.RESPONSES_AS_CODE]
    enabled: Enabled = True
    params: ResponsesAsCodeParams = Field(default_factory=ResponsesAsCodeParams)


class ProgramLibraryCapability(Part):
    """The agent's program library; when enabled, `params.keep` and `params.idLength` are required."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"enabled": {"const": False}}, "required": ["enabled"]},
            "else": {"required": ["params"], "properties": {"params": {"required": ["keep", "idLength"]}}},
        }
    )

    id: Literal[CapabilityId.PROGRAM_LIBRARY]
    enabled: Enabled = True
    params: ProgramLibraryParams = Field(default_factory=ProgramLibraryParams)


Capability = Annotated[
    ResponsesAsCodeCapability
    | ProgramLibraryCapability
    | SkillsCapability
    | ShellCapability
    | SubagentsCapability
    | ExecCapability
    | ForkCapability
    | FsmCapability
    | HostFunctionsCapability
    | McpCapability
    | MemoriesCapability
    | TasksCapability
    | ProjectManagementCapability
    | AgentManagedContextCapability,
    Field(discriminator="id"),
]


OperationEntry = Annotated[
    str, Text(OPERATION_ENTRY, "an operation's key (module.operation) or a whole module (module.*)")
]


class Agent(Part):
    """One agent profile: its slug, display name, role, task, model, capabilities, roster, hooks,
    and the operations its ablation withholds (`disabledOperations`, judged at launch:
    `gg.sdk.ablation`).

    The root's `task` is the run's; another profile's is its default brief, when a spawn gives
    none. A machine (`fsm`) has no model; every other profile has one (checked in `rules.py`)."""

    slug: Slug
    name: Annotated[str, Name(described="the name the profile is shown under")] | None = None
    role: Annotated[Role, Choice(Role)] = Role.STANDARD
    task: Annotated[str, Text(described="the task the agent is given", max_chars=100_000)] | None = None
    model: ModelBinding | None = None
    capabilities: tuple[Capability, ...] = ()
    subagents: tuple[RosterEntry, ...] = ()
    hooks: tuple[HookDeclaration, ...] = ()
    disabled_operations: tuple[OperationEntry, ...] = ()

    def enabled(self, capability: CapabilityId) -> bool:
        return any(entry.id == capability and entry.enabled for entry in self.capabilities)

    @property
    def binding(self) -> ModelBinding:
        """The profile's model; a machine has none (`LookupError`)."""
        if self.model is None:
            raise LookupError(f"agent `{self.slug}` names no model")
        return self.model

    @property
    def max_depth(self) -> int | None:
        """The depth limit `subagents` sets, or None when the profile does not enable it."""
        for entry in self.capabilities:
            if isinstance(entry, SubagentsCapability) and entry.enabled:
                return entry.params.max_depth
        return None

    @property
    def machine(self) -> FsmParams | None:
        """The state table, when the profile is a machine."""
        for entry in self.capabilities:
            if isinstance(entry, FsmCapability) and entry.enabled:
                return entry.params
        return None

    def roster_entry(self, slug: str) -> RosterEntry | None:
        return next((entry for entry in self.subagents if entry.agent == slug), None)

    @property
    def capability_ids(self) -> frozenset[str]:
        """What the profile grants its programs: each enabled capability's id,
        `host-functions:<family>` for each host family it lists and `mcp:<server>` for each MCP
        server."""
        ids = {entry.id.value for entry in self.capabilities if entry.enabled}
        ids |= {HOST_FAMILY_GRANT.format(family=family) for family in self.host_families}
        mcp = self.mcp
        servers = () if mcp is None else mcp.servers
        return frozenset(ids | {MCP_SERVER_GRANT.format(server=key) for key in servers})

    @property
    def host_families(self) -> tuple[str, ...]:
        """The host family entries the profile enables, as written (none when it enables none)."""
        for entry in self.capabilities:
            if isinstance(entry, HostFunctionsCapability) and entry.enabled:
                return entry.params.families
        return ()

    @property
    def mcp(self) -> McpParams | None:
        """The MCP servers the profile enables and their call timeout, or None when it enables none."""
        for entry in self.capabilities:
            if isinstance(entry, McpCapability) and entry.enabled:
                return entry.params
        return None

    @property
    def responses_as_code(self) -> ResponsesAsCodeParams:
        for entry in self.capabilities:
            if isinstance(entry, ResponsesAsCodeCapability):
                return entry.params
        raise LookupError(f"agent `{self.slug}` lists no responses-as-code capability")

    @property
    def language(self) -> Language:
        return self.responses_as_code.language

    @property
    def built_ins_off(self) -> frozenset[str]:
        """gg's own skill families the profile's `builtIns` switches off (all: skills disabled)."""
        for entry in self.capabilities:
            if isinstance(entry, SkillsCapability) and entry.enabled and entry.params.built_ins is not None:
                return entry.params.built_ins.switched_off
        return frozenset(BUILT_IN_FAMILIES)

    def skills_directory(self, workspace: Path) -> Path | None:
        """The skills directory in `workspace`, or None when the profile does not enable skills."""
        for entry in self.capabilities:
            if isinstance(entry, SkillsCapability) and entry.enabled and entry.params.dir is not None:
                return (workspace / entry.params.dir).resolve()
        return None

    @property
    def shell(self) -> ShellParams | None:
        """The shell's settings, or None when the agent's profile does not enable the shell."""
        for entry in self.capabilities:
            if isinstance(entry, ShellCapability) and entry.enabled:
                return entry.params
        return None

    @property
    def memories(self) -> MemoryProfile | None:
        """What its memories resolve to, or None when the profile does not enable them."""
        for entry in self.capabilities:
            if isinstance(entry, MemoriesCapability) and entry.enabled:
                return entry.profile(self.slug)
        return None

    @property
    def program_library(self) -> LibrarySettings | None:
        """The library's settings, or None when the agent keeps no programs."""
        for entry in self.capabilities:
            if isinstance(entry, ProgramLibraryCapability) and entry.enabled:
                keep, id_length = entry.params.keep, entry.params.id_length
                if keep is None or id_length is None:
                    raise LookupError(f"agent `{self.slug}`'s program library lacks keep or idLength")
                return LibrarySettings(keep=keep, id_length=id_length)
        return None


class CapabilitySet(Part):
    """A whole run's configuration: its name, workspace, ceilings, agents (one is `root`) and the
    hooks of the session's two ends (`gg.config.hooks`)."""

    name: Annotated[str, Name()]
    workspace: Annotated[Path, Place("folder")] = Field(
        default=Path(DEFAULT_WORKSPACE), validate_default=True
    )
    limits: Limits = Field(default_factory=Limits)
    agents: tuple[Agent, ...] = Field(json_schema_extra={"minItems": 1})
    hooks: tuple[HookDeclaration, ...] = ()

    @property
    def root(self) -> Agent:
        """`agents[0]`, where the run starts."""
        return self.agents[0]

    def entry(self, profile: Agent) -> Agent:
        """The profile an agent of `profile` takes its turns under: a machine's entry state's."""
        machine = profile.machine
        return profile if machine is None else self.agent(machine.entry.agent)

    def agent(self, slug: str) -> Agent:
        for agent in self.agents:
            if agent.slug == slug:
                return agent
        raise KeyError(f"no agent `{slug}` in capability set `{self.name}`")
