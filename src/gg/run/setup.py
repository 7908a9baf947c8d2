"""A profile, resolved once: everything its agents are given and never change (`AgentSetup`).

An agent instance is its setup, what it holds (`gg.state.holdings`) and the run it belongs to
(`gg.run.context`). The setup is decided from the profile and the run's capability set before the
first turn: the arm's language, the capabilities it enables, the per-program ceilings, the run's
ceilings, the model settings, the one tool, the SDK it is served, what it may read and load (its
grant), its workspace, its library settings, its task, the profiles its roster lets it start or
become, the run's depth limit, what its memories resolve to (beside the run's one registry of
`shared` memory stores), and, for a profile a machine runs, the state it stands in (its `Seat`: an
agent standing in a state with edges out may call `transitionState`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gg.config.catalogue import RosterScope
from gg.config.delegation import FsmState, RosterEntry
from gg.config.model import Agent as AgentProfile
from gg.config.model import Limits as LimitsConfig
from gg.config.model import ProgramLibrary as LibrarySettings
from gg.loop.limits import Limits
from gg.providers.base import ToolSpec, submit_program_tool
from gg.sandbox.execution import Ceilings
from gg.sandbox.jail import JailPolicy
from gg.sandbox.languages import LANGUAGES, LanguageSpec
from gg.sdk.docs.surface import build_surface
from gg.sdk.registry import STANDS_IN_A_STATE, Registry, Role
from gg.sdk.shell import ShellAccess
from gg.sdk.surface import Grant
from gg.state.memories import MemoryProfile, ProfileStores
from gg.state.modules import Holder
from gg.state.workspace import Workspace


@dataclass(frozen=True)
class ModelSettings:
    """What every request of the agent's model carries beside the window."""

    max_output_tokens: int | None = None
    temperature: float | None = None


@dataclass(frozen=True)
class Seat:
    """Where a machine runs an agent: the machine (its profile's slug) and the state."""

    machine: str
    state: FsmState

    @property
    def targets(self) -> tuple[str, ...]:
        """The states its edges lead to."""
        return tuple(edge.to for edge in self.state.transitions)


@dataclass(frozen=True)
class AgentSetup:
    slug: str
    role: Role
    language: LanguageSpec
    capabilities: frozenset[str]
    ceilings: Ceilings
    limits: Limits
    model: ModelSettings
    tool: ToolSpec
    registry: Registry
    grant: Grant
    workspace: Workspace
    library: LibrarySettings | None = None
    task: str | None = None
    shell: ShellAccess | None = None  # the profile's jail, opened at launch, when it enables a shell
    name: str | None = None
    roster: tuple[RosterEntry, ...] = ()  # the entries it may start or exec into (`subagent`-scoped)
    max_depth: int | None = None
    seat: Seat | None = None
    memories: MemoryProfile | None = None
    memory_stores: ProfileStores | None = None  # the run's `shared` memory stores, one per profile

    @property
    def jail(self) -> JailPolicy | None:
        return None if self.shell is None else self.shell.jail.policy

    @property
    def holder(self) -> Holder:
        """What its module set is opened for and re-resolved against."""
        return Holder(
            self.capabilities, self.grant.skills, memories=self.memories, memory_stores=self.memory_stores
        )


def resolve_setup(
    profile: AgentProfile,
    limits: LimitsConfig,
    registry: Registry,
    workspace: Path,
    shell: ShellAccess | None = None,
    seat: Seat | None = None,
    memory_stores: ProfileStores | None = None,
) -> AgentSetup:
    """The setup of `profile` in a run under `limits`, served `registry`, working in `workspace`,
    with the shell opened for it at launch (`gg.run.shell.open_shell`), if any, standing in `seat`
    when a machine runs it, its memories bound among the run's `memory_stores`.

    Raises `LookupError` for a library that lacks its settings.
    """
    language = LANGUAGES[profile.language.value]
    capabilities = profile.capability_ids
    if seat is not None and seat.targets:
        capabilities |= {STANDS_IN_A_STATE}
    surface = build_surface(registry, language, profile.role, capabilities, profile.skills_directory)
    return AgentSetup(
        slug=profile.slug,
        role=profile.role,
        language=language,
        capabilities=capabilities,
        ceilings=profile.responses_as_code.ceilings,
        limits=resolve_limits(limits),
        model=ModelSettings(profile.binding.max_output_tokens, profile.binding.temperature),
        tool=submit_program_tool(language.display_name),
        registry=registry,
        grant=surface.grant,
        workspace=Workspace(workspace),
        library=profile.program_library,
        task=profile.task,
        shell=shell,
        name=profile.name,
        roster=tuple(entry for entry in profile.subagents if RosterScope.SUBAGENT in entry.scopes),
        max_depth=profile.max_depth,
        seat=seat,
        memories=profile.memories,
        memory_stores=memory_stores if memory_stores is not None else ProfileStores(),
    )


def resolve_limits(limits: LimitsConfig) -> Limits:
    """The ceilings as the loop reads them; a ceiling nobody wrote is not armed."""
    rate = limits.error_rate
    return Limits(
        max_turns=limits.max_turns,
        max_runtime_secs=limits.max_runtime_secs,
        max_consecutive_errors=limits.max_consecutive_errors,
        max_error_rate=None if rate is None else rate.threshold,
        error_rate_window=None if rate is None else rate.window,
        max_cost=limits.max_cost,
    )
