"""A fork's copy, dispatched once the forking turn closes (seed 001, "Four declarations"; seed 003,
"Copying").

The copy is a new agent one level deeper, running its forker's profile under the id the fork call
minted. It holds a fork of everything its forker held (each module copied under a new id or
linked, the library cloned, nothing loaded), renders its own system prompt, and finds a note at
the tail of its window naming its forker and the turn, then the fork's prompt. Its turn count
continues from its forker's. The forker's stream records the fork (`agent_transition`) before the
copy opens.
"""

from __future__ import annotations

from gg import prompts
from gg.agents.build import Arrival, Opener, render_system_prompt
from gg.loop.agent import Incarnation
from gg.providers.base import Message
from gg.sdk.scope import ForkDeclaration
from gg.telemetry.agent_events import AgentTransition, TransitionKind


def copy_of(forker: Incarnation, fork: ForkDeclaration, spawner: Opener) -> Incarnation:
    run = spawner.run
    node = run.tree.open_fork(fork.id, forker.node)
    run.lineages.open(node.id, forker.node.lineage, fork.slot)
    holdings, rows = forker.holdings.fork(run.store_ids, node.id)
    arrival = Arrival("fork", forker.id, node.depth, fork.prompt)
    render_system_prompt(holdings, forker.setup, arrival)
    note = prompts.render("fork-note", forker=forker.id, turn=forker.stream.turn, prompt=fork.prompt)
    holdings.window.push(Message(role="user", content=note))
    forker.stream.emit(
        AgentTransition(
            kind=TransitionKind.FORK.value,
            to_agent_id=node.id,
            profile_id=forker.setup.slug,
            modules=[row.to_wire() for row in rows],
            library=forker.holdings.library_row(holdings, fork=True).to_wire(),
        )
    )
    return spawner.open(forker.setup, node, arrival, holdings, turn=forker.stream.turn)
