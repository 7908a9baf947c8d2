"""How a machine's session ends (issue 21, item 14): an ending declared by the agent standing in a
state of a machine.

Rules kept here:
- in a terminal state (no edge out) the ending is the machine's end, as any agent's is;
- in a state with edges out, the ending still ends the machine where it stands: the machine is one
  agent, and its agent's ending is its own (the original's way, case 075), so the session ends
  `completed` with that final word. The record says it ended outside the machine's end: a warning
  on the agent's stream naming the machine, the state and the machine's terminal states (fields
  `fsmId`, `state`, `terminalStates`), and the same words as the ending's message, which the run's
  end carries when the machine is the run's (`run_finished.message`, printed by `gg run` and
  `gg show` under the ending).
"""

from __future__ import annotations

import dataclasses

from gg.loop.agent import AgentEnd, Incarnation


def recorded_end(agent: Incarnation, end: AgentEnd) -> AgentEnd:
    """`end` as the run records it: an ending outside the machine's terminal states says so."""
    seat = agent.setup.seat
    if end.ending is None or seat is None or seat.terminal:
        return end
    terminals = ", ".join(f"`{name}`" for name in seat.terminals) or "none"
    words = (
        f"the machine `{seat.machine}` ended in its state `{seat.state.name}`, outside its terminal "
        f"states ({terminals}): the ending of the agent standing there ended it"
    )
    agent.stream.warn(words, fsmId=seat.machine, state=seat.state.name, terminalStates=list(seat.terminals))
    return dataclasses.replace(end, message=words)
