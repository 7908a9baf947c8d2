"""The rules of the agent tree: rosters and the capabilities that start or hand on agents, judged on
the document as written. Each refuses the launch at its key path, every one at once:
- a roster entry names a profile of the run and at least one scope (an entry with none could
  never be used);
- an enabled `subagents` writes `maxDepth`; the depth limit is the run's, so every profile that
  writes one writes the same value as the first;
- `exec` needs a roster entry scoped `subagent` to hand on to, and is refused on a profile a
  machine runs as a state (the machine decides that agent's successors);
- `fork` needs `subagents` enabled on the same profile: a copy is a child, bounded by `maxDepth`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from gg.config.catalogue import CapabilityId, RosterScope
from gg.config.defects import Finding, Loc, mapping, sequence
from gg.config.machines import enabled_capabilities, state_profiles

__all__ = ["roster_findings"]


def roster_findings(agents: Sequence[Any]) -> Iterator[Finding]:
    """Every defect of the run's rosters and delegation capabilities."""
    slugs = [p["slug"] for p in map(mapping, agents) if p is not None and isinstance(p.get("slug"), str)]
    states = state_profiles(agents)
    depth: tuple[int, object] | None = None  # the first profile that writes maxDepth, and its value
    for index, agent in enumerate(agents):
        profile = mapping(agent)
        if profile is None:
            continue
        loc: Loc = ("agents", index)
        yield from _entries(sequence(profile.get("subagents")) or [], (*loc, "subagents"), slugs)
        enabled = enabled_capabilities(profile)
        if CapabilityId.SUBAGENTS in enabled:
            written, finding = _max_depth(profile, enabled[CapabilityId.SUBAGENTS], loc, depth)
            yield from finding
            depth = depth or ((index, written) if written is not None else None)
        yield from _exec(profile, enabled, loc, profile.get("slug") in states)
        if CapabilityId.FORK in enabled and CapabilityId.SUBAGENTS not in enabled:
            yield Finding(
                (*loc, "capabilities", enabled[CapabilityId.FORK], "id"),
                "needs subagents enabled on this profile: a copy is a child, and maxDepth bounds it",
            )


def _entries(entries: Sequence[Any], loc: Loc, slugs: list[str]) -> Iterator[Finding]:
    known = ", ".join(f"`{slug}`" for slug in slugs)
    for number, raw in enumerate(entries):
        entry = mapping(raw)
        if entry is None:
            continue
        agent = entry.get("agent")
        if isinstance(agent, str) and agent not in slugs:
            yield Finding((*loc, number, "agent"), f"names no profile of this run; the profiles are {known}")
        scopes = entry.get("scopes")
        if scopes is None or scopes == []:
            every = ", ".join(scope.value for scope in RosterScope)
            yield Finding(
                (*loc, number, "scopes"),
                f"must name at least one scope ({every}): an entry with none is unusable",
            )


def _max_depth(
    profile: Mapping[str, Any], at: int, loc: Loc, first: tuple[int, object] | None
) -> tuple[object, list[Finding]]:
    capability = mapping((sequence(profile.get("capabilities")) or [])[at]) or {}
    params = mapping(capability.get("params")) or {}
    here: Loc = (*loc, "capabilities", at, "params", "maxDepth")
    written = params.get("maxDepth")
    if written is None:
        reason = "is required when subagents is enabled: the deepest an agent may stand, the root at 0"
        return None, [Finding(here, reason)]
    if first is not None and first[1] != written:
        reason = f"differs from agents[{first[0]}]'s {first[1]}: the depth limit is the run's, one value"
        return written, [Finding(here, reason)]
    return written, []


def _exec(
    profile: Mapping[str, Any], enabled: Mapping[str, int], loc: Loc, a_state: bool
) -> Iterator[Finding]:
    if CapabilityId.EXEC not in enabled:
        return
    here: Loc = (*loc, "capabilities", enabled[CapabilityId.EXEC], "id")
    if a_state:
        yield Finding(
            here, "cannot be enabled on a profile a machine runs as a state: the machine moves it on"
        )
    entries = [mapping(e) or {} for e in sequence(profile.get("subagents")) or []]
    if not any(RosterScope.SUBAGENT in (sequence(e.get("scopes")) or []) for e in entries):
        yield Finding(here, "needs a roster entry (subagents) scoped subagent to hand the session to")
