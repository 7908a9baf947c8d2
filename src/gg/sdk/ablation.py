"""Toolset ablation: what a profile's `disabledOperations` withholds, and the SDK it is offered.

Rules:
- an entry names an operation by its key, `module.operation` (`files.write_file`), or every
  operation of a module, `module.*` (`memories.*`); gg's own modules, the host families and the
  MCP servers' modules are spelled alike, as the run's registry holds them;
- an entry naming no module of the run, or no operation of its module, is refused, naming the
  modules (or the module's operations) there are; an entry that would withhold an ending call is
  refused, since the agent could then never end; every refused entry is gathered (`withholding`);
- what a profile is offered is the run's registry without the withheld operations (`offered`): a
  module left with no operation goes, and with it each record only it names, so the surface, the
  documentation, the declarations, the stubs and the system prompt's module list are all read
  from one registry. The withheld operations stay known to it (`Registry.held_back`), so a call
  to one is refused `unavailable` by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gg.sdk.registry import Ending, Operation, Registry
from gg.sdk.shapes import named
from gg.sdk.types import referenced

WHOLE_MODULE = "*"  # `module.*`: every operation of the module


@dataclass(frozen=True)
class Refused:
    """One entry of `disabledOperations` that withholds nothing: its place, what it says, and why."""

    index: int
    entry: str
    reason: str


@dataclass(frozen=True)
class Withholding:
    """What a profile's entries withhold (wire keys, in registry order), and the entries refused."""

    withheld: tuple[str, ...] = ()
    refused: tuple[Refused, ...] = ()


def withholding(registry: Registry, entries: Sequence[str]) -> Withholding:
    """The operations of `registry` that `entries` withhold, and each entry refused. Pure."""
    keys: set[str] = set()
    refused: list[Refused] = []
    for index, entry in enumerate(entries):
        named_ops, reason = _named(registry, entry)
        endings = [op.wire for op in named_ops if isinstance(op.gate, Ending)]
        if reason is None and endings:
            reason = f"would withhold the ending call {', '.join(endings)}; an agent must be able to end"
        if reason is not None:
            refused.append(Refused(index, entry, reason))
        else:
            keys |= {op.wire for op in named_ops}
    return Withholding(tuple(op.wire for op in registry if op.wire in keys), tuple(refused))


def _named(registry: Registry, entry: str) -> tuple[list[Operation], str | None]:
    """The operations `entry` names, or why it names none."""
    module, _, key = entry.partition(".")
    own = registry.in_family(module)
    if not own:
        return [], f"names no module; the modules are {', '.join(registry.families())}"
    if key == WHOLE_MODULE:
        return own, None
    found = registry.get(entry)
    if found is None:
        return [], f"names no operation of `{module}`; it holds {', '.join(op.key for op in own)}"
    return [found], None


def offered(registry: Registry, withheld: Iterable[str]) -> Registry:
    """`registry` without the operations keyed in `withheld`, which it holds back, and without
    the records of a module left empty that nothing it keeps names."""
    keys = set(withheld)
    if not keys:
        return registry
    kept = [op for op in registry if op.wire not in keys]
    emptied = set(registry.families()) - {op.family for op in kept}
    needed = _reachable(registry, kept, emptied)
    types = [d for d in registry.types.values() if d.family not in emptied or d.name in needed]
    briefs = {family: brief for family, brief in registry.briefs.items() if family not in emptied}
    held = [op for op in registry if op.wire in keys]
    return Registry(kept, types, briefs, withheld=held)


def _reachable(registry: Registry, kept: Sequence[Operation], emptied: set[str]) -> set[str]:
    """Every record name the kept operations and the records of kept modules reach."""
    names: list[str] = [name for op in kept for name in op.returned_names()]
    names += [name for op in kept for p in op.params if p.shape is not None for name in named(p.shape)]
    names += [d.name for d in registry.types.values() if d.family not in emptied]
    seen: set[str] = set()
    while names:
        name = names.pop()
        decl = registry.types.get(name)
        if name in seen or decl is None:
            continue
        seen.add(name)
        names.extend(referenced(decl))
    return seen
