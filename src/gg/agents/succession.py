"""Applying a succession at the close of a turn: an exec (the agent becomes another profile of its
roster) or a machine's move (the agent becomes the next state's profile). Seed 003, "Transfer".

- The plan: a machine's edge carries exactly the kinds it names; an exec carries every kind the
  outgoing agent holds and the receiving profile enables. An exec into a machine enters it at its
  entry state, the plan computed against that state's profile.
- Before it goes, the outgoing agent's modules report what they have not (its stream), and its
  stream records the succession (`agent_transition`: a row per kind, and the library's row).
- The successor is a new incarnation of the same lineage (`<lineage>@<k>`, parented to its
  predecessor, at its depth): it takes the modules the plan carried (a carried window loses the
  block of each kind dropped or started fresh), the library (truncated to its
  own `keep`), the lineage's record for the ceilings and its turn count. Its window's system-prompt
  slot is filled with its own prompt before its first turn; a window that did not cross opens
  fresh, briefed like the lineage's first. The opening note at its tail says who it now is, what
  came across and what did not, each reason a module was started fresh instead, then the call's
  prompt or note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gg import prompts
from gg.agents.build import Arrival, Opener, render_system_prompt
from gg.config.kinds import Disposition, ModuleKind
from gg.errors import FatalFault, GgDefect
from gg.loop.agent import Incarnation
from gg.loop.modules import release_blocks
from gg.loop.setup import AgentSetup
from gg.loop.system import kinds_phrase
from gg.providers.base import Message
from gg.sdk.scope import Succession
from gg.state.dispositions import Row, exec_carries
from gg.state.holdings import Plan, kinds_held_by
from gg.telemetry.agent_events import AgentTransition, TransitionKind

if TYPE_CHECKING:
    from gg.agents.profiles import Profiles


@dataclass(frozen=True)
class Target:
    """Where a succession leads: the receiving setup, the succession's kind, the kinds a machine's
    edge carries (None for an exec), and the state moved from."""

    setup: AgentSetup
    kind: TransitionKind
    edge_carries: frozenset[ModuleKind] | None = None
    from_state: str | None = None


def successor_of(agent: Incarnation, succession: Succession, spawner: Opener) -> Incarnation:
    run = spawner.run
    target = target_of(agent.setup, succession, spawner.profiles)
    setup, held = target.setup, agent.holdings
    carried = target.edge_carries
    if carried is None:
        carried = exec_carries(held.modules.held(), kinds_held_by(setup.holder))
    for snapshot in held.modules.drain():
        agent.stream.emit(snapshot)
    node = run.tree.succeed(agent.node, setup.slug)
    run.lineages.move(node.lineage, node.id)
    holdings, moved = held.transfer(
        setup.holder,
        setup.grant.open(),
        setup.library,
        Plan(carried, run.store_ids, run.program_ids, node.id),
    )
    release_blocks(holdings, moved.rows)
    arrival = Arrival("succession", agent.id, node.depth, succession.note, target.from_state)
    render_system_prompt(holdings, setup, arrival)
    if ModuleKind.HISTORY not in carried and held.window.task is not None:
        holdings.window.brief(held.window.task)
    holdings.window.push(
        Message(role="user", content=_note(agent, target, moved.rows, moved.reasons, succession))
    )
    agent.stream.emit(
        AgentTransition(
            kind=target.kind.value,
            to_agent_id=node.id,
            profile_id=setup.slug,
            modules=[row.to_wire() for row in moved.rows],
            library=held.library_row(holdings).to_wire(),
            state=None if setup.seat is None else setup.seat.state.name,
        )
    )
    return spawner.open(setup, node, arrival, holdings, ledger=agent.ledger, turn=agent.stream.turn)


def target_of(setup: AgentSetup, succession: Succession, profiles: Profiles) -> Target:
    """Where `succession`, declared by an agent of `setup`, leads."""
    if succession.kind == "exec":
        return Target(profiles.entering(succession.target), TransitionKind.EXEC)
    seat = setup.seat
    edge = None if seat is None else seat.state.edge(succession.target)
    if seat is None or edge is None:
        raise GgDefect(
            FatalFault.HOST_FAULT, f"a move to `{succession.target}` was declared with no edge to it"
        )
    receiving = profiles.state(seat.machine, succession.target)
    return Target(receiving, TransitionKind.FSM, edge.carried, seat.state.name)


def _note(
    agent: Incarnation, target: Target, rows: list[Row], reasons: list[str], succession: Succession
) -> str:
    of = {
        disposition: [row.kind for row in rows if row.disposition is disposition]
        for disposition in Disposition
    }
    other = of[Disposition.DROPPED] or of[Disposition.INITIALIZED]
    setup, seat = target.setup, target.setup.seat
    return prompts.render(
        "succession-note",
        machine=None if seat is None else seat.machine,
        state=None if seat is None else seat.state.name,
        from_state=target.from_state,
        slug=setup.slug,
        name=setup.name,
        predecessor=agent.id,
        carried=kinds_phrase(of[Disposition.CARRIED]) if of[Disposition.CARRIED] else "",
        other=kinds_phrase(other) if other else "",
        reasons=reasons,
        instructions=succession.note,
    )
