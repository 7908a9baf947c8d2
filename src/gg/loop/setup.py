"""A profile, resolved once: everything its agents are given and never change (`AgentSetup`).

An agent instance is its setup, what it holds (`gg.state.holdings`) and the run it belongs to
(`gg.loop.run`). The setup is decided from the profile and the run's capability set before the
first turn: the arm's language, the capabilities it enables, the per-program ceilings, the run's
ceilings, the model settings, the one tool, the SDK it is served (the run's, without what its
`disabledOperations` withholds: `gg.sdk.ablation`), what it may read and load (its grant), its
workspace, its library settings, its task, the profiles its roster lets it start or
become, the run's depth limit, what its memories resolve to (beside the run's one registry of
`shared` memory stores), and, for a profile a machine runs, the state it stands in (its `Seat`: an
agent standing in a state with edges out may call `transitionState`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from gg.config.catalogue import Role, RosterScope
from gg.config.ceilings import Ceilings
from gg.config.delegation import FsmState, RosterEntry
from gg.config.kinds import ModuleKind
from gg.config.memories import MemoryProfile
from gg.config.model import Agent as AgentProfile
from gg.config.model import LibrarySettings, Limits
from gg.config.modules import reviewers_required, task_list
from gg.config.skills import BUILT_IN_FAMILIES
from gg.loop.limits import LoopLimits
from gg.providers.base import ToolSpec, submit_program_tool
from gg.sandbox.jail import Jail, JailPolicy
from gg.sandbox.languages import LANGUAGES
from gg.sdk.ablation import offered, withholding
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.docs.surface import build_surface
from gg.sdk.registry import STANDS_IN_A_STATE, Registry
from gg.sdk.shell import ShellAccess
from gg.sdk.surface import Grant, Surface
from gg.state.board import BoardSeat, IssuePolicy
from gg.state.memories import ProfileStores
from gg.state.module import Holder
from gg.state.skills import SkillCatalogues
from gg.state.workspace import Workspace


@dataclass(frozen=True)
class ModelSettings:
    """What every request of the agent's model carries beside the window."""

    max_output_tokens: int | None = None
    temperature: float | None = None


@dataclass(frozen=True)
class Seat:
    """Where a machine runs an agent: the machine (its profile's slug), the state, and the
    machine's terminal states."""

    machine: str
    state: FsmState
    terminals: tuple[str, ...] = ()

    @property
    def terminal(self) -> bool:
        """Whether the state has no edge out: an ending here is the machine's end."""
        return not self.state.transitions

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
    limits: LoopLimits
    model: ModelSettings
    tool: ToolSpec
    registry: Registry
    grant: Grant
    workspace: Workspace
    library: LibrarySettings | None = None
    task: str | None = None
    shell: ShellAccess[Jail] | None = None  # the profile's jail, opened at launch, when it enables a shell
    name: str | None = None
    roster: tuple[RosterEntry, ...] = ()  # the entries it may start or exec into (`subagent`-scoped)
    max_depth: int | None = None
    seat: Seat | None = None
    modules: Mapping[ModuleKind, object] = field(default_factory=dict[ModuleKind, object], hash=False)
    memories: MemoryProfile | None = None
    memory_stores: ProfileStores | None = None  # the run's `shared` memory stores, one per profile

    @property
    def jail(self) -> JailPolicy | None:
        return None if self.shell is None else self.shell.jail.policy

    @property
    def holder(self) -> Holder:
        """What its module set is opened for and re-resolved against."""
        return Holder(
            self.capabilities,
            self.grant.skills,
            ModuleKind.BOARD in self.modules,
            memories=self.memories,
            memory_stores=self.memory_stores,
            settings=self.modules,
        )

    def holder_at(self, issue: str | None) -> Holder:
        """The holder of an agent dispatched to implement or review `issue` (None: any other)."""
        seat = self.modules.get(ModuleKind.BOARD)
        if issue is None or not isinstance(seat, BoardSeat):
            return self.holder
        return replace(
            self.holder, settings={**self.modules, ModuleKind.BOARD: replace(seat, assigned_issue=issue)}
        )


@dataclass(frozen=True)
class RunGround:
    """What every profile's setup in one run is resolved among: the run's `limits`, the `registry`
    serving it, its `workspace`, its `shared` memory stores (one per profile), its skills
    catalogues (one per directory) and its board's seat (None: the run has none)."""

    limits: Limits
    registry: Registry
    workspace: Path
    memory_stores: ProfileStores = field(default_factory=ProfileStores)
    catalogues: SkillCatalogues = field(default_factory=SkillCatalogues)
    board: BoardSeat | None = None


def resolve_setup(
    profile: AgentProfile, ground: RunGround, shell: ShellAccess[Jail] | None = None, seat: Seat | None = None
) -> AgentSetup:
    """The setup of `profile` in the run `ground` describes, with the shell opened for it at launch
    (`gg.agents.shell.open_shell`), if any, standing in `seat` when a machine runs it.

    Raises `LookupError` for a library that lacks its settings.
    """
    registry, workspace = profile_registry(profile, ground.registry), ground.workspace
    language = LANGUAGES[profile.language.value]
    capabilities = profile.capability_ids
    if seat is not None and seat.targets:
        capabilities |= {STANDS_IN_A_STATE}
    surface = _surface(profile, replace(ground, registry=registry), language, capabilities)
    return AgentSetup(
        slug=profile.slug,
        role=profile.role,
        language=language,
        capabilities=capabilities,
        ceilings=profile.responses_as_code.ceilings,
        limits=resolve_limits(ground.limits),
        model=_model_settings(profile),
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
        modules=module_settings(profile, ground.board),
        memories=profile.memories,
        memory_stores=ground.memory_stores,
    )


def profile_registry(profile: AgentProfile, registry: Registry) -> Registry:
    """The SDK `profile` is served: `registry` without what its `disabledOperations` withhold (an
    entry that withholds nothing was refused at launch)."""
    return offered(registry, withholding(registry, profile.disabled_operations).withheld)


def _surface(
    profile: AgentProfile, ground: RunGround, language: LanguageSpec, capabilities: Collection[str]
) -> Surface:
    """What `profile` may call and read: its capabilities' operations, its skills directory's
    shelf, and the built-in families it keeps."""
    directory = profile.skills_directory(ground.workspace)
    shelf = (
        None
        if directory is None
        else ground.catalogues.shelf(directory, language.module_extensions, ground.workspace)
    )
    offered = [family for family in BUILT_IN_FAMILIES if family not in profile.built_ins_off]
    return build_surface(ground.registry, language, profile.role, capabilities, shelf, offered)


def module_settings(profile: AgentProfile, board: BoardSeat | None) -> dict[ModuleKind, object]:
    """Each module kind's settings for an agent of `profile` (`Holder.settings`): its task list's,
    and its seat at the run's board (whom its roster lets it put to work through an issue)."""
    settings: dict[ModuleKind, object] = {}
    tasks = task_list(profile.capabilities)
    if tasks is not None:
        settings[ModuleKind.TASKS] = tasks
    if board is not None:
        settings[ModuleKind.BOARD] = replace(board, policy=issue_policy(profile))
    return settings


def issue_policy(profile: AgentProfile) -> IssuePolicy:
    """Whom an agent of `profile` may put to work through the board: its roster's implementers and
    reviewers, and whether its profile requires a reviewer on every issue."""
    implementers, reviewers = (
        tuple(entry.agent for entry in profile.subagents if scope in entry.scopes)
        for scope in (RosterScope.IMPLEMENTER, RosterScope.REVIEWER)
    )
    return IssuePolicy(implementers, reviewers, reviewers_required(profile.capabilities))


def _model_settings(profile: AgentProfile) -> ModelSettings:
    """The profile's output cap and temperature; none for a root left unnamed for a handed model."""
    own = profile.model
    return ModelSettings(None, None) if own is None else ModelSettings(own.max_output_tokens, own.temperature)


def resolve_limits(limits: Limits) -> LoopLimits:
    """The ceilings as the loop reads them; a ceiling nobody wrote is not armed."""
    rate = limits.error_rate
    return LoopLimits(
        max_turns=limits.max_turns,
        max_runtime_secs=limits.max_runtime_secs,
        max_consecutive_errors=limits.max_consecutive_errors,
        max_error_rate=None if rate is None else rate.threshold,
        error_rate_window=None if rate is None else rate.window,
        max_cost=limits.max_cost,
    )
