"""Every profile of a run, resolved once at launch (`Profiles`): one setup per profile that takes
turns, and one per state of each machine (the state's profile, standing in that state).

A profile's `disabledOperations` is judged against the run's modules (gg's own, its host families,
its MCP servers') before anything opens: an entry that withholds nothing refuses the launch, every
such entry of every profile at once (`gg.sdk.ablation`). An agent started under a profile that is
a machine starts in the machine's entry state. A
profile's shell is opened once, at launch, so a host that cannot jail it refuses the launch before
any agent takes a turn. The launch log names each of gg's own skills a profile's skills directory
replaces with one of its own, and warns of each skill of it not offered for its name (the file
named escaped). Every setup of a run binds `shared` memories among the run's one registry.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from pathlib import Path

from gg.agents.shell import open_shell
from gg.config.delegation import FsmState
from gg.config.load import OperationJudge
from gg.config.model import Agent as AgentProfile
from gg.config.model import CapabilitySet
from gg.errors import ConfigDefect, ConfigError
from gg.loop.setup import AgentSetup, RunGround, Seat, resolve_setup
from gg.loop.stream import AgentStream
from gg.sdk.ablation import withholding
from gg.sdk.registry import Registry
from gg.state.board import BoardSeat
from gg.wire import escaped

ABLATION = "disabledOperations"  # what a refused ablation names as its source


class Profiles:
    def __init__(
        self,
        capability_set: CapabilitySet,
        registry: Registry,
        workspace: Path,
        stream: AgentStream,
        board: BoardSeat | None = None,
    ):
        """Raises `ConfigError` for an entry of `disabledOperations` that withholds nothing or a
        shell this host cannot jail, `LookupError` for a library that lacks its settings. `board` is
        the run's board, when it has one."""
        judge_ablations(capability_set, registry)
        self.capability_set = capability_set
        self._setups: dict[tuple[str, str | None], AgentSetup] = {}
        ground = RunGround(capability_set.limits, registry, workspace, board=board)
        for profile in capability_set.agents:
            if profile.machine is not None:
                continue
            shell = open_shell(profile, workspace, stream)
            setup = resolve_setup(profile, ground, shell)
            self._setups[(profile.slug, None)] = setup
            _log_replaced_skills(stream, setup, workspace)
            _warn_withheld_skills(stream, setup, workspace)
            for machine, state, terminals in self._states_run_by(profile.slug):
                self._setups[(machine, state.name)] = resolve_setup(
                    profile, ground, shell, Seat(machine, state, terminals)
                )

    @property
    def root(self) -> AgentProfile:
        return self.capability_set.root

    def profile(self, slug: str) -> AgentProfile:
        return self.capability_set.agent(slug)

    def entering(self, slug: str) -> AgentSetup:
        """The setup an agent started under `slug` takes its first turn under."""
        machine = self.profile(slug).machine
        if machine is None:
            return self._setups[(slug, None)]
        return self.state(slug, machine.entry.name)

    def state(self, machine: str, state: str) -> AgentSetup:
        """The setup of the agent standing in `state` of `machine`."""
        return self._setups[(machine, state)]

    def _states_run_by(self, slug: str) -> list[tuple[str, FsmState, tuple[str, ...]]]:
        """Each machine state `slug` runs: the machine, the state and the machine's terminals."""
        found: list[tuple[str, FsmState, tuple[str, ...]]] = []
        for profile in self.capability_set.agents:
            table = profile.machine
            if table is not None:
                found.extend(
                    (profile.slug, state, table.terminals) for state in table.states if state.agent == slug
                )
        return found


def ablation_judge(registry: Registry, modules: Collection[str] | None = None) -> OperationJudge:
    """Judges a profile's `disabledOperations` against `registry` as a launch does; with `modules`,
    a profile that binds modules of its own at launch (host families, MCP servers) has only the
    entries naming one of `modules` judged, since its own are not bound yet."""

    def judge(entries: Sequence[str], binds: bool) -> list[tuple[int, str]]:
        return [
            (refused.index, refused.reason)
            for refused in withholding(registry, entries).refused
            if modules is None or not binds or refused.entry.partition(".")[0] in modules
        ]

    return judge


def own_modules_judge() -> OperationJudge:
    """Judges the entries naming gg's own modules, which are known before a run binds its host
    families and MCP servers: `gg check`, and a launch loading its capability set."""
    from gg.sdk.catalogue import default_registry

    registry = default_registry()
    return ablation_judge(registry, registry.families())


def judge_ablations(capability_set: CapabilitySet, registry: Registry) -> None:
    """Raises `ConfigError` naming every entry of every profile's `disabledOperations` that
    withholds nothing from the run's modules (`registry`, every module bound), with why (the
    modules or operations there are)."""
    judge = ablation_judge(registry)
    defects = [
        ConfigDefect(f"agents[{n}].disabledOperations[{index}]", profile.disabled_operations[index], why)
        for n, profile in enumerate(capability_set.agents)
        for index, why in judge(profile.disabled_operations, True)
    ]
    if defects:
        raise ConfigError(ABLATION, defects)


def _log_replaced_skills(stream: AgentStream, setup: AgentSetup, workspace: Path) -> None:
    """The launch log: each of gg's own skills a skill of the profile's directory replaces."""
    shelf = setup.grant.skills
    if shelf is None or not shelf.replaced:
        return
    for name in shelf.replaced:
        skill = shelf.get(name)
        file = None if skill is None or skill.file is None else os.path.relpath(skill.file, workspace)
        stream.log_info(
            f"{setup.slug}'s skills directory holds `{name}`, which replaces gg's own skill of that name"
            + ("" if file is None else f" ({file})"),
            skill=name,
            file=file,
        )


def _warn_withheld_skills(stream: AgentStream, setup: AgentSetup, workspace: Path) -> None:
    """The launch log: a warning for each skill of the profile's directory not offered, because
    its name holds a control or bidi character, naming its file escaped."""
    shelf = setup.grant.skills
    for withheld in () if shelf is None else shelf.withheld:
        file = escaped(os.path.relpath(withheld, workspace))
        stream.warn(
            f"{setup.slug}'s skills directory holds `{file}`, whose name holds a control or bidi"
            " character; it is not offered as a skill",
            file=file,
        )
