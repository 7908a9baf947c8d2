"""Building one agent from its profile: setup, window, library, and the launch log line."""

from __future__ import annotations

from pathlib import Path

from gg import prompts
from gg.config.model import Agent as AgentProfile
from gg.config.model import Limits as LimitsConfig
from gg.loop.agent import Agent, AgentSetup
from gg.loop.limits import Limits
from gg.loop.system import system_prompt
from gg.providers.base import Message, ModelClient, submit_program_tool
from gg.run.shell import open_shell
from gg.run.spend import Spend
from gg.run.stream import AgentStream
from gg.sandbox.execution import Arm
from gg.sandbox.languages import LANGUAGES, LanguageSpec
from gg.sandbox.surface import build_surface
from gg.sdk.registry import Registry
from gg.state.library import Minter, ProgramLibrary, cuid2_minter
from gg.state.views import ViewSet
from gg.state.window import Window
from gg.state.workspace import Workspace


def build_agent(
    profile: AgentProfile,
    limits: LimitsConfig,
    registry: Registry,
    arm: Arm,
    client: ModelClient,
    stream: AgentStream,
    workspace: Path,
    spend: Spend,
    minter: Minter = cuid2_minter,
) -> Agent:
    """One agent for `profile`; `spend` is the run's, shared by all its agents."""
    language = LANGUAGES[profile.language.value]
    setup = _setup(profile, limits, language, stream.agent_id)
    settings = profile.program_library
    library = None if settings is None else ProgramLibrary(settings.keep, settings.id_length, minter)
    surface = build_surface(registry, language, profile.role, setup.capabilities, profile.skills_directory)
    skills = surface.skills.skills if surface.skills else ()
    shell = open_shell(profile, workspace, stream)
    jail = None if shell is None else shell.jail.policy
    window = Window(
        system=system_prompt(registry, language, profile.role, setup.capabilities, library, skills, jail)
    )
    if profile.task:
        window.brief(Message(role="user", content=prompts.render("task", task=profile.task)))
    if library is not None:
        _log_library(stream, registry, language, library)
    return Agent(
        setup=setup,
        client=client,
        arm=arm,
        registry=registry,
        stream=stream,
        window=window,
        views=ViewSet(),
        workspace=Workspace(workspace),
        tool=submit_program_tool(language.display_name),
        library=library,
        shell=shell,
        surface=surface,
        spend=spend,
    )


def _setup(profile: AgentProfile, limits: LimitsConfig, language: LanguageSpec, agent_id: str) -> AgentSetup:
    rate = limits.error_rate
    return AgentSetup(
        agent_id=agent_id,
        role=profile.role,
        language=language.id,
        capabilities=frozenset(c.id.value for c in profile.capabilities if c.enabled),
        ceilings=profile.responses_as_code.ceilings,
        limits=Limits(
            max_turns=limits.max_turns,
            max_runtime_secs=limits.max_runtime_secs,
            max_consecutive_errors=limits.max_consecutive_errors,
            max_error_rate=None if rate is None else rate.threshold,
            error_rate_window=None if rate is None else rate.window,
            max_cost=limits.max_cost,
        ),
        max_output_tokens=profile.model.max_output_tokens,
        temperature=profile.model.temperature,
    )


def _log_library(
    stream: AgentStream, registry: Registry, language: LanguageSpec, library: ProgramLibrary
) -> None:
    """The launch log names each keeping agent, its retention, its id length and its calls."""
    spell = {op.key: op.qualified(language.id) for op in registry.in_family("programs")}
    kept = "every program" if library.keep == 0 else f"its last {library.keep} programs"
    stream.log_info(
        f"{stream.agent_id} keeps {kept} under {library.id_length}-character ids; "
        f"fetch with {spell['get']}(id), hand over with {spell['rerun']}(source)",
        keep=library.keep,
        idLength=library.id_length,
    )
