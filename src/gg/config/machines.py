"""The rules of a state machine (a profile enabling `fsm`), judged on the document as written.

A machine is a shell: it takes no turns, so it writes no `model`, `role` or roster and enables no
other capability (its `task`, when written, is the task its states' fresh windows open on). Its
table refuses the launch, each defect at its key path and every one at once, when:
- `states` lists no state (the first is the entry), or no terminal state (one with no edge out,
  where the machine's work ends: the run's ending is the terminal state's);
- a state's name repeats another's, or a state cannot be reached from the entry;
- a state names no profile of the run, or names a machine (a state is run by a profile that takes
  turns);
- an edge leads to no state of the machine;
- an edge's `transfer` names one kind twice;
- an edge's `transfer` carries a kind the outgoing state's profile would not hold: judged by that
  profile's own switch for every kind but the board, which every agent of a run with a board holds.
A `transfer` entry that is not one of the six kind names is refused by its shape (`delegation.py`),
and so is a state's name holding a control or bidi character; a name a finding quotes is escaped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from gg.config.catalogue import CapabilityId
from gg.config.defects import Finding, Loc, mapping, sequence
from gg.config.kinds import KIND_CAPABILITY, ModuleKind, held_by_profile
from gg.wire import escaped

__all__ = ["enabled_capabilities", "is_machine", "machine_findings", "state_profiles"]

_WORKER_KEYS = ("model", "role", "subagents")


def enabled_capabilities(profile: Mapping[str, Any]) -> dict[str, int]:
    """The capability ids a profile enables, each with its index in `capabilities`."""
    enabled: dict[str, int] = {}
    for index, entry in enumerate(sequence(profile.get("capabilities")) or []):
        capability = mapping(entry) or {}
        if isinstance(capability.get("id"), str) and capability.get("enabled") is not False:
            enabled.setdefault(capability["id"], index)
    return enabled


def is_machine(profile: Mapping[str, Any]) -> bool:
    return CapabilityId.FSM in enabled_capabilities(profile)


def _profiles(agents: Sequence[Any]) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for agent in agents:
        profile = mapping(agent)
        if profile is not None and isinstance(profile.get("slug"), str):
            out.setdefault(profile["slug"], profile)
    return out


def _states(profile: Mapping[str, Any]) -> tuple[int, list[Mapping[str, Any]] | None]:
    """The `fsm` capability's index and its states (None when they are not a list)."""
    index = enabled_capabilities(profile)[CapabilityId.FSM]
    entries = sequence(profile.get("capabilities")) or []
    capability = mapping(entries[index]) or {}
    states = sequence((mapping(capability.get("params")) or {}).get("states"))
    return index, None if states is None else [mapping(s) or {} for s in states]


def state_profiles(agents: Sequence[Any]) -> set[str]:
    """Every profile a machine of the run runs as one of its states."""
    named: set[str] = set()
    for profile in _profiles(agents).values():
        if is_machine(profile):
            named.update(s["agent"] for s in _states(profile)[1] or [] if isinstance(s.get("agent"), str))
    return named


def machine_findings(agents: Sequence[Any]) -> Iterator[Finding]:
    """Every defect of every machine of the run."""
    profiles = _profiles(agents)
    board = any(KIND_CAPABILITY[ModuleKind.BOARD] in enabled_capabilities(p) for p in profiles.values())
    for index, agent in enumerate(agents):
        profile = mapping(agent)
        if profile is None or not is_machine(profile):
            continue
        yield from _shell(profile, ("agents", index))
        fsm, states = _states(profile)
        loc: Loc = ("agents", index, "capabilities", fsm, "params", "states")
        if states is None:
            continue  # its shape is pydantic's to name
        if not states:
            yield Finding(loc, "must list at least one state; the first is where the machine starts")
            continue
        yield from _table(states, loc, profiles, board)


def _shell(profile: Mapping[str, Any], loc: Loc) -> Iterator[Finding]:
    for key in _WORKER_KEYS:
        if key in profile:
            yield Finding((*loc, key), "is not read by a machine: the profiles of its states take the turns")
    for capability, index in enabled_capabilities(profile).items():
        if capability != CapabilityId.FSM:
            yield Finding(
                (*loc, "capabilities", index, "id"),
                f"cannot be enabled on a machine, which takes no turns of its own; "
                f"enable {capability} on the profiles its states run",
            )


def _table(
    states: list[Mapping[str, Any]], loc: Loc, profiles: Mapping[str, Mapping[str, Any]], board: bool
) -> Iterator[Finding]:
    names = [s.get("name") for s in states]
    known = [name for name in names if isinstance(name, str)]
    for number, state in enumerate(states):
        here: Loc = (*loc, number)
        name = names[number]
        if isinstance(name, str) and name and names.index(name) < number:
            yield Finding(
                (*here, "name"), f"repeats the name of states[{names.index(name)}]; names are unique"
            )
        yield from _runner(state.get("agent"), (*here, "agent"), profiles)
        for edge_number, edge in enumerate(sequence(state.get("transitions")) or []):
            yield from _edge(
                mapping(edge) or {}, (*here, "transitions", edge_number), state, known, profiles, board
            )
    yield from _unreachable(states, loc)
    if all(sequence(state.get("transitions")) for state in states):
        yield Finding(
            loc,
            "must hold a terminal state (one with no edge out), where the machine's work ends; "
            "every state here has an edge out",
            [name if isinstance(name, str) else None for name in names],
        )


def _runner(agent: object, loc: Loc, profiles: Mapping[str, Mapping[str, Any]]) -> Iterator[Finding]:
    if not isinstance(agent, str):
        return
    if agent not in profiles:
        yield Finding(loc, f"names no profile of this run; the profiles are {_listed(profiles)}")
    elif is_machine(profiles[agent]):
        yield Finding(loc, "names a machine; a state is run by a profile that takes turns")


def _edge(
    edge: Mapping[str, Any],
    loc: Loc,
    state: Mapping[str, Any],
    known: list[str],
    profiles: Mapping[str, Mapping[str, Any]],
    board: bool,
) -> Iterator[Finding]:
    target = edge.get("to")
    if isinstance(target, str) and target and target not in known:
        yield Finding((*loc, "to"), f"names no state of this machine; the states are {_listed(known)}")
    runner = state.get("agent")
    outgoing = profiles.get(runner) if isinstance(runner, str) else None
    if outgoing is None or is_machine(outgoing):
        return
    capabilities = frozenset(enabled_capabilities(outgoing))
    kinds = sequence(edge.get("transfer")) or []
    for number, kind in enumerate(kinds):
        if isinstance(kind, str) and kinds.index(kind) < number:
            yield Finding((*loc, "transfer", number), f"repeats {kind}; a transfer names each kind once")
        elif kind in set(ModuleKind) and not held_by_profile(ModuleKind(kind), capabilities, board):
            yield Finding(
                (*loc, "transfer", number),
                f"carries {kind}, which `{runner}` does not hold: its profile does not enable "
                f"{KIND_CAPABILITY[ModuleKind(kind)]}",
            )


def _unreachable(states: list[Mapping[str, Any]], loc: Loc) -> Iterator[Finding]:
    """Each state no path of edges leads to from the entry."""
    by_name = {s["name"]: s for s in reversed(states) if isinstance(s.get("name"), str)}
    entry = states[0].get("name")
    reached, pending = {entry}, [states[0]]
    while pending:
        for edge in sequence(pending.pop().get("transitions")) or []:
            target = (mapping(edge) or {}).get("to")
            if isinstance(target, str) and target in by_name and target not in reached:
                reached.add(target)
                pending.append(by_name[target])
    for number, state in enumerate(states):
        name = state.get("name")
        if isinstance(name, str) and name and name not in reached:
            shown = escaped(entry) if isinstance(entry, str) else entry
            yield Finding((*loc, number, "name"), f"cannot be reached from the entry state `{shown}`")


def _listed(names: Mapping[str, Any] | Sequence[str]) -> str:
    return ", ".join(f"`{escaped(name)}`" for name in names) or "none"
