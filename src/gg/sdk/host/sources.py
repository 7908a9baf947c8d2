"""Which host families a run serves, and where each comes from, decided from the profiles'
`host-functions` entries before the first turn.

An entry is resolved, in this order:
- a name (`inventory`): a family handed to the run under that name (`gg.run(..., families=[...])`),
  else one the replayed recording declares;
- `package.module:attribute`: the `gg.family(...)` that attribute holds, imported; when the import
  fails (a module that calls `sys.exit` as it loads fails it too; a Ctrl-C stays the operator's),
  the family the replayed recording declares under that entry. A recording that answers
  first (a playback, `gg.playback`) is asked before the import, so a function the record answered
  is never called again.

A family that is live is called; one only the recording holds is answered from it. Every entry
that cannot be resolved (unknown, unimportable, not a family) and every clash (two families of one
name, a name gg's own SDK uses) is a `ConfigError` listing them all, each at its key path.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gg.config.model import CapabilitySet, HostFunctionsCapability
from gg.errors import ConfigDefect, ConfigError
from gg.sdk.host.calling import describe, exit_call
from gg.sdk.host.declaration import FamilyDeclaration
from gg.sdk.host.family import RESERVED_FAMILIES, HostFamily
from gg.sdk.host.recording import HostRecording

SOURCE = "host families"


@dataclass(frozen=True)
class Source:
    """A family the run serves: `live` when its functions are called, None when it is answered
    from the recording; `entry` is the `package.module:attribute` it was named by, if any."""

    declaration: FamilyDeclaration
    live: HostFamily | None = None
    entry: str | None = None

    @property
    def name(self) -> str:
        return self.declaration.name


@dataclass(frozen=True)
class Sources:
    families: tuple[Source, ...]
    names: dict[str, str]  # each entry as written → the family it names
    unused: tuple[str, ...]  # families handed to the run that no profile lists


def resolve_sources(
    capability_set: CapabilitySet, given: Sequence[HostFamily], recording: HostRecording
) -> Sources:
    """The families every profile's entries name. Raises `ConfigError` (see the module rules)."""
    handed = {family.name: family for family in given}
    twins = [family.name for family in given if handed[family.name] is not family]
    defects = [
        ConfigDefect("families", name, "two families handed to the run share this name") for name in twins
    ]
    found: dict[str, Source] = {}
    names: dict[str, str] = {}
    for path, entry in _entries(capability_set):
        if entry in names:
            continue  # another profile lists it too
        try:
            source = _resolve(entry, handed, recording)
        except LookupError as unresolved:
            defects.append(ConfigDefect(path, entry, str(unresolved)))
            continue
        earlier = found.get(source.name)
        clash = _clash(source, earlier)
        if clash:
            defects.append(ConfigDefect(path, entry, clash))
            continue
        kept = source if earlier is None or earlier.entry is None else earlier  # the recording keeps an entry
        found[source.name], names[entry] = kept, source.name
    if defects:
        raise ConfigError(SOURCE, defects)
    unused = tuple(name for name in handed if name not in found)
    return Sources(tuple(found.values()), names, unused)


def _entries(capability_set: CapabilitySet) -> Iterator[tuple[str, str]]:
    """(key path, entry) of every family an enabled `host-functions` lists, in document order."""
    for a, agent in enumerate(capability_set.agents):
        for c, capability in enumerate(agent.capabilities):
            if isinstance(capability, HostFunctionsCapability) and capability.enabled:
                for f, entry in enumerate(capability.params.families):
                    yield f"agents[{a}].capabilities[{c}].params.families[{f}]", entry


def _resolve(entry: str, handed: dict[str, HostFamily], recording: HostRecording) -> Source:
    if recording.first and (first := recording.entered_as(entry) or recording.named(entry)):
        return Source(first.declaration, entry=first.entry)
    if ":" not in entry:
        if entry in handed:
            return Source(handed[entry].declaration, handed[entry])
        recorded = recording.named(entry)
        if recorded is not None:
            return Source(recorded.declaration)
        offered = ", ".join(sorted(handed)) or "none"
        raise LookupError(f"names no host family handed to the run (handed: {offered})")
    try:
        family = import_family(entry)
    except LookupError:
        recorded = recording.entered_as(entry)
        if recorded is None:
            raise
        return Source(recorded.declaration, entry=entry)
    return Source(family.declaration, family, entry)


def import_family(entry: str) -> HostFamily:
    """The family `package.module:attribute` names. Raises `LookupError` saying why not."""
    module_name, _, attribute = entry.partition(":")
    try:
        module = importlib.import_module(module_name)
    except SystemExit as exiting:  # a module that exits as it loads is refused, never gg's exit
        said = f"SystemExit: the module called {exit_call(exiting)} as it loaded"
        raise LookupError(f"cannot be imported ({said})") from None
    except Exception as failure:  # the module's own code may raise anything while it loads
        raise LookupError(f"cannot be imported ({describe(failure)})") from None
    if not hasattr(module, attribute):
        raise LookupError(f"cannot be imported: the module `{module_name}` has no `{attribute}`")
    value = getattr(module, attribute)
    if not isinstance(value, HostFamily):
        raise LookupError(f"is not a host family (made by gg.family) but {type(value).__name__}")
    return value


def _clash(source: Source, earlier: Source | None) -> str | None:
    if source.name in RESERVED_FAMILIES:
        return f"declares the family `{source.name}`, a name gg's own SDK uses"
    if earlier is not None and (earlier.live is not source.live or earlier.declaration != source.declaration):
        return f"names a family `{source.name}` other than the one another entry names"
    return None
