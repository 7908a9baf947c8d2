"""Building agent instances: what a new one holds, the system prompt it renders for itself, and
how it announces itself as it opens.

- A new agent (the root, a subagent) opens holding the store every kind it holds binds: a
  window whose system prompt is rendered for its own setup and briefed with its brief, an empty
  view set, a surface opened from its grant, an empty skills read set, its memories bound by their
  scope (a subagent may be offered its spawner's), and an empty library when its profile keeps one.
- A fork copy and a successor hold what they were handed; each renders its own system prompt into
  the window's empty slot before its first turn (`render_system_prompt`).
- Every instance opens on its own stream with `agent_spawned` (naming what it is offered and what
  its profile withholds), then `fsm_state` when a machine
  runs it, then its roster (`agent_modules`), then each module's snapshot as it arrives.
- The launch log names each agent that keeps programs, its retention, its id length and its calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from gg import prompts
from gg.agents.context import RunContext
from gg.config.kinds import ModuleKind
from gg.loop.agent import Incarnation
from gg.loop.modules import spelling
from gg.loop.setup import AgentSetup
from gg.loop.stream import AgentStream
from gg.loop.system import Delegating, arrival_segment, delegation_segment, system_prompt
from gg.providers.base import Message
from gg.sdk.surface import Surface
from gg.state.holdings import Holdings
from gg.state.library import ProgramLibrary
from gg.state.memories.module import MemoriesModule
from gg.state.module import Instance
from gg.state.modules import ModuleSet
from gg.telemetry.agent_events import AgentModules, AgentSpawned, FsmStateEntered

if TYPE_CHECKING:
    from gg.agents.profiles import Profiles
    from gg.ids import AgentNode
    from gg.loop.limits import ErrorLedger


class Opener(Protocol):
    """What opens agent instances, as a fork, a succession and a delegation port read it
    (`gg.agents.spawner.Spawner`): the run, its profiles, `open` (an instance at a node, announced)
    and `spawn` (a subagent started for a parent)."""

    @property
    def run(self) -> RunContext: ...

    @property
    def profiles(self) -> Profiles: ...

    def open(
        self,
        setup: AgentSetup,
        node: AgentNode,
        arrival: Arrival,
        holdings: Holdings[Surface] | None = None,
        *,
        ledger: ErrorLedger | None = None,
        turn: int = 0,
    ) -> Incarnation: ...

    def spawn(self, parent: Incarnation, profile: str, brief: str) -> dict[str, object]: ...


@dataclass(frozen=True)
class Arrival:
    """How an instance came to be: `spawn`, `fork`, `succession` or `issue` (None for the root),
    who made it, how deep it stands, its brief, the machine state it moved from, and the board
    issue gg dispatched it to implement or review."""

    how: str | None = None
    parent: str | None = None
    depth: int = 0
    brief: str | None = None
    from_state: str | None = None
    issue: str | None = None


def fresh_holdings(
    setup: AgentSetup, run: RunContext, arrival: Arrival, agent_id: str, spawner: ModuleSet | None = None
) -> Holdings[Surface]:
    """What a new agent `agent_id` of `setup` holds before its first turn: its window briefed with
    `arrival.brief` (none: an unbriefed window); `spawner` is the set of the agent that spawned it."""
    settings = setup.library
    library = None if settings is None else ProgramLibrary(settings.keep, settings.id_length, run.program_ids)
    instance = Instance(agent_id, spawner)
    holdings = Holdings.open(
        setup.holder_at(arrival.issue), setup.grant.open(), library, run.store_ids, instance
    )
    render_system_prompt(holdings, setup, arrival)
    if arrival.brief:
        holdings.window.brief(Message(role="user", content=prompts.render("task", task=arrival.brief)))
    return holdings


def render_system_prompt(holdings: Holdings[Surface], setup: AgentSetup, arrival: Arrival) -> None:
    """Fill the window's system-prompt slot with the prompt rendered for `setup`."""
    shelf = holdings.surface.skills
    facts = Delegating(setup.roster, setup.max_depth, arrival.depth, setup.seat)
    holdings.window.system = system_prompt(
        setup.registry,
        setup.language,
        setup.role,
        setup.capabilities,
        holdings.library,
        shelf.skills if shelf else (),
        setup.jail,
        delegation=delegation_segment(setup.registry, setup.language, setup.capabilities, facts),
        arrival=arrival_segment(arrival.how, arrival.parent),
        memories=_memories_segment(holdings, setup),
    )


def _memories_segment(holdings: Holdings[Surface], setup: AgentSetup) -> str:
    module = holdings.modules.get(ModuleKind.MEMORIES)
    if not isinstance(module, MemoriesModule) or not setup.registry.in_family("memories"):
        return ""  # no memories, or the profile withholds the whole module
    return module.guide_text(spelling(setup))


def announce(agent: Incarnation, arrival: Arrival) -> None:
    """The instance's opening events, on its own stream (see the module rules)."""
    stream, setup = agent.stream, agent.setup
    stream.emit(
        AgentSpawned(
            profile_id=setup.slug,
            model_id=agent.client.model_id,
            depth=agent.node.depth,
            brief=arrival.brief,
            language=setup.language.id,
            offered=[op.wire for op in setup.registry.bound(setup.role, setup.capabilities)],
            withheld=list(setup.registry.withheld),
        )
    )
    if setup.seat is not None:
        seat = setup.seat
        stream.emit(
            FsmStateEntered(
                fsm_id=seat.machine,
                state=seat.state.name,
                profile_id=setup.slug,
                from_state=arrival.from_state,
            )
        )
    stream.emit(AgentModules(modules=agent.holdings.modules.roster()))
    for snapshot in agent.holdings.modules.restate():
        stream.emit(snapshot)
    if agent.holdings.library is not None:
        _log_library(stream, setup, agent.holdings.library)


def _log_library(stream: AgentStream, setup: AgentSetup, library: ProgramLibrary) -> None:
    spell = setup.registry.spelling(setup.language.id)
    kept = "every program" if library.keep == 0 else f"its last {library.keep} programs"
    stream.log_info(
        f"{stream.agent_id} keeps {kept} under {library.id_length}-character ids; "
        f"fetch with {spell('programs.get')}(id), hand over with {spell('programs.rerun')}(source)",
        keep=library.keep,
        idLength=library.id_length,
    )
