"""The skills capability's workspace pass: judged once the capability set has loaded, because a
skills `dir` is a folder of the workspace, which only the loaded set names.

- an enabled `skills` names, as `dir`, an existing folder inside the workspace;
- its catalogue can be loaded whole: no skill is given both as `<name>.md` and `<name>/skill.md`.
Each defect is a finding at `agents[i].capabilities[j].params.dir`, beside every other defect.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from gg.config.catalogue import CapabilityId
from gg.config.defects import Finding, mapping, sequence
from gg.config.machines import enabled_capabilities
from gg.sdk.skills import catalogue_defects

__all__ = ["skills_findings"]


def skills_findings(agents: Sequence[Any], workspace: Path) -> Iterator[Finding]:
    """Every defect of the enabled skills directories of `agents` (as written) in `workspace`."""
    for index, agent in enumerate(agents):
        profile = mapping(agent) or {}
        number = enabled_capabilities(profile).get(CapabilityId.SKILLS.value)
        if number is None:
            continue
        listed = sequence(profile.get("capabilities")) or []
        params: Mapping[str, Any] = mapping((mapping(listed[number]) or {}).get("params")) or {}
        written = params.get("dir")
        if not isinstance(written, str) or not written.strip():
            continue  # the shape checks name it
        loc = ("agents", index, "capabilities", number, "params", "dir")
        yield from (Finding(loc, reason) for reason in _directory_defects(workspace, written))


def _directory_defects(workspace: Path, written: str) -> list[str]:
    root = workspace.resolve()
    try:
        place = (root / written).resolve()
    except (OSError, ValueError):
        return ["must be a folder path the system accepts"]
    if not place.is_relative_to(root):
        return [f"must name a folder inside the workspace ({root}); it leads outside it"]
    if not place.is_dir():
        return [f"must name an existing folder of the workspace; there is none at {place}"]
    return catalogue_defects(place)
