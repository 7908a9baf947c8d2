"""The `host-functions` capability: `{"id": "host-functions", "params": {"families": [...]}}`.

Shape rules enforced here; what the list must hold is `host_families_findings`':
- each entry is a family handed to the run by name (`gg.run(..., families=[...])`), or an
  importable `package.module:attribute` naming one (`HOST_FAMILY_ENTRY`), at most 300 characters;
- the list names at least one family, each once. Each listed family grants its programs
  `host-functions:<family>` (`Agent.capability_ids`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from gg.config.catalogue import HOST_FAMILY_ENTRY, CapabilityId
from gg.config.defects import Finding, Loc, sequence
from gg.config.part import Enabled, Part
from gg.config.values import Text

__all__ = ["HostFunctionsCapability", "HostFunctionsParams", "host_families_findings"]

FamilyEntry = Annotated[
    str,
    Text(HOST_FAMILY_ENTRY, "a host family's name or an importable package.module:attribute", max_chars=300),
]


class HostFunctionsParams(Part):
    """The host families the agent's programs may call: each a family handed to the run by name
    (`gg.run(..., families=[...])`), or an importable `package.module:attribute` naming one."""

    families: tuple[FamilyEntry, ...]


class HostFunctionsCapability(Part):
    """Host functions (`gg.family`): the families in `params.families`, gated one by one."""

    id: Literal[CapabilityId.HOST_FUNCTIONS]
    enabled: Enabled = True
    params: HostFunctionsParams


def host_families_findings(families: object, loc: Loc) -> Iterator[Finding]:
    """`params.families` (at `loc`, the capability's `params`) lists at least one family, each once."""
    listed = sequence(families)
    if listed is None:
        return
    if not listed:
        yield Finding((*loc, "families"), "must list at least one host family")
    for index, entry in enumerate(listed):
        if isinstance(entry, str) and entry in listed[:index]:
            yield Finding((*loc, "families", index), f"lists {entry} again; each family is listed once")
