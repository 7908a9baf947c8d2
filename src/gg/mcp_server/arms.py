"""Which profiles `gg mcp serve` serves: for each arm a profile writes programs in, the first such
profile (in document order, machines aside), as the root of that arm's sessions, every other
profile kept behind it (`served_arms`).

Rules:
- A served profile's model is the MCP client, so it need not name one; every profile it serves
  loads so (`load_served`), the root and each other arm's alike. A profile no arm serves names its
  own model, which answers the agents it may run in a session.
"""

from __future__ import annotations

from pathlib import Path

from gg.config.document import locate, read_document
from gg.config.load import parse_capability_set
from gg.config.model import CapabilitySet


def served_arms(capability_set: CapabilitySet) -> dict[str, CapabilitySet]:
    """Each arm a profile writes programs in, with the capability set rooted at the first such
    profile (every other profile kept behind it), in document order."""
    arms: dict[str, CapabilitySet] = {}
    for agent in capability_set.agents:
        if agent.machine is not None:
            continue
        arm = agent.language.value
        if arm not in arms:
            others = tuple(other for other in capability_set.agents if other is not agent)
            arms[arm] = capability_set.model_copy(update={"agents": (agent, *others)})
    return arms


def served_profiles(capability_set: CapabilitySet) -> list[int]:
    """The index in `agents` of each profile an arm is served by."""
    roots = [rooted.agents[0] for rooted in served_arms(capability_set).values()]
    return [index for index, agent in enumerate(capability_set.agents) if agent in roots]


def load_served(path: str | Path) -> CapabilitySet:
    """The capability set at `path` as `gg mcp serve` loads it: each profile it serves may leave
    its model unnamed. Raises `ConfigError` naming every defect at once, as any load does; which
    profiles are served is read from the set once it parses, so a profile's missing model is
    named once the set's other defects are mended."""
    file = locate(path)
    document = read_document(file)
    base, source = file.resolve().parent, str(file)
    agents = document.get("agents")
    every = range(len(agents)) if isinstance(agents, list) else ()  # which are served, read first
    loaded = parse_capability_set(document, base, source, models_handed=every)
    return parse_capability_set(document, base, source, models_handed=served_profiles(loaded))
