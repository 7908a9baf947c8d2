"""Building one agent inside a run: its setup's arm leased, its holdings opened, its launch line.

An agent opens holding a window whose system prompt is rendered for its own setup (and briefed
with the profile's task, when it has one), an empty view set, a surface opened from its grant,
an empty skills read set, and an empty library when its profile keeps one.
"""

from __future__ import annotations

from gg import prompts
from gg.loop.agent import Agent
from gg.loop.system import system_prompt
from gg.providers.base import Message, ModelClient
from gg.run.context import RunContext
from gg.run.setup import AgentSetup
from gg.run.stream import AgentStream
from gg.state.holdings import Holdings
from gg.state.library import ProgramLibrary


def build_agent(setup: AgentSetup, run: RunContext, client: ModelClient, stream: AgentStream) -> Agent:
    """An agent of `setup` asking `client`, reporting on `stream`.

    Raises `LookupError` for a language the run has no arm for.
    """
    run.leases.arm(setup.language)
    holdings = open_holdings(setup, run)
    if holdings.library is not None:
        _log_library(stream, setup, holdings.library)
    return Agent(setup=setup, holdings=holdings, client=client, stream=stream)


def open_holdings(setup: AgentSetup, run: RunContext) -> Holdings:
    """What a new agent of `setup` holds before its first turn."""
    settings = setup.library
    library = None if settings is None else ProgramLibrary(settings.keep, settings.id_length, run.program_ids)
    surface = setup.grant.open()
    holdings = Holdings.open(setup.holder, surface, library, run.store_ids)
    skills = surface.skills.skills if surface.skills else ()
    window = holdings.window
    window.system = system_prompt(
        setup.registry, setup.language, setup.role, setup.capabilities, library, skills, setup.jail
    )
    if setup.task:
        window.brief(Message(role="user", content=prompts.render("task", task=setup.task)))
    return holdings


def _log_library(stream: AgentStream, setup: AgentSetup, library: ProgramLibrary) -> None:
    """The launch log names each keeping agent, its retention, its id length and its calls."""
    spell = {op.key: op.qualified(setup.language.id) for op in setup.registry.in_family("programs")}
    kept = "every program" if library.keep == 0 else f"its last {library.keep} programs"
    stream.log_info(
        f"{stream.agent_id} keeps {kept} under {library.id_length}-character ids; "
        f"fetch with {spell['get']}(id), hand over with {spell['rerun']}(source)",
        keep=library.keep,
        idLength=library.id_length,
    )
