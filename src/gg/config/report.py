"""What `gg check FILE` prints, and its exit code.

- valid: exit 0 and one line naming the set, then each agent with its role, language, model and
  library, then the ceilings armed;
- refused: exit 2 and the refusal: a header line, then every defect on a line of its own.
"""

from __future__ import annotations

from pathlib import Path

from gg.config.catalogue import Provider
from gg.config.load import OperationJudge, load_capability_set
from gg.config.model import Agent, CapabilitySet, Limits
from gg.errors import ConfigError
from gg.wire import camel

__all__ = ["CHECK_REFUSED", "CHECK_VALID", "check_report", "summarize"]

CHECK_VALID = 0
CHECK_REFUSED = 2


def check_report(path: str | Path, operations: OperationJudge | None = None) -> tuple[int, str]:
    """`(exit code, text)` for `gg check path`; `operations` judges what the ablations name."""
    try:
        capability_set = load_capability_set(path, operations=operations)
    except ConfigError as error:
        return CHECK_REFUSED, str(error)
    return CHECK_VALID, f"{path}: {summarize(capability_set)}"


def summarize(capability_set: CapabilitySet) -> str:
    """One line: `valid capability set "x": root (standard, javascript, replay j.jsonl); no limits armed`."""
    agents = ", ".join(_agent(agent) for agent in capability_set.agents)
    return f'valid capability set "{capability_set.name}": {agents}; {_limits(capability_set.limits)}'


def _agent(agent: Agent) -> str:
    machine, binding = agent.machine, agent.model
    if machine is not None:
        return f"{agent.slug} (machine: {' → '.join(state.name for state in machine.states)})"
    if binding is None:  # answered by the model the run is given (`--model`, `gg.run(model=...)`)
        model = "no model named: give the run one"
    elif binding.provider == Provider.REPLAY and binding.journal is not None:
        model = f"replay {binding.journal.name}"
    else:
        model = f"{binding.provider.value} {binding.model}"
    library = agent.program_library
    kept = "" if library is None else f", library keep {library.keep or 'all'} idLength {library.id_length}"
    return f"{agent.slug} ({agent.role.value}, {agent.language.value}, {model}{kept})"


def _limits(limits: Limits) -> str:
    armed = [f"{camel(name)} {value:g}" for name, value in limits if value is not None]
    return "limits " + ", ".join(armed) if armed else "no limits armed"
