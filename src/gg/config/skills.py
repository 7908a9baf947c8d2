"""The skills capability (anchor-state §1.5): its model, what a skills directory holds, and its
workspace pass.

Shape rules (the model): `params.dir`, a non-blank path; `params.builtIns`, an object naming
which of gg's twelve own skill families (`BUILT_IN_FAMILIES`) are switched off (`false`), `{}`
for none; both required when enabled (`gg.config.modules`).
What a skills directory holds (`catalogue_entries`, read by the SDK's catalogue, `gg.sdk.skills`):
a skill is a file `<name>.md`, or a folder `<name>` holding `skill.md`, listed sorted by name;
entries whose name starts with `.`, links, other files and folders without `skill.md` are not
skills.
The workspace pass (`skills_findings`), judged once the capability set has loaded, because a
skills `dir` is a folder of the workspace, which only the loaded set names:
- an enabled `skills` names, as `dir`, an existing folder inside the workspace;
- its catalogue can be loaded whole: no skill is given both as `<name>.md` and `<name>/skill.md`.
Each defect is a finding at `agents[i].capabilities[j].params.dir`, beside every other defect.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from gg.config.catalogue import CapabilityId
from gg.config.defects import Finding, mapping, sequence
from gg.config.machines import enabled_capabilities
from gg.config.part import Enabled, Part
from gg.config.values import Text

__all__ = [
    "BUILT_IN_FAMILIES",
    "SKILL_FILE",
    "BuiltInSkills",
    "Entry",
    "SkillsCapability",
    "SkillsParams",
    "catalogue_defects",
    "catalogue_entries",
    "skills_findings",
]

SKILL_FILE = "skill.md"

BUILT_IN_FAMILIES: dict[str, str] = {
    "gg-filesystem": "files",
    "gg-shell": "shell",
    "gg-project": "board",
    "gg-tasks": "tasks",
    "gg-memory": "memories",
    "gg-skills": "skills",
    "gg-context": "context",
    "gg-delegation": "delegation",
    "gg-docs": "docs",
    "gg-views": "views",
    "gg-programs": "programs",
    "gg-session": "session",
}
"""gg's own skill families (what a `skills.builtIns` object names) and the SDK family each reads."""


class BuiltInSkills(Part):
    """gg's own skill families, each `true` (offered) or `false` (switched off); `{}` offers all."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=lambda name: name.replace("_", "-")
    )

    gg_filesystem: Enabled = True
    gg_shell: Enabled = True
    gg_project: Enabled = True
    gg_tasks: Enabled = True
    gg_memory: Enabled = True
    gg_skills: Enabled = True
    gg_context: Enabled = True
    gg_delegation: Enabled = True
    gg_docs: Enabled = True
    gg_views: Enabled = True
    gg_programs: Enabled = True
    gg_session: Enabled = True

    @property
    def switched_off(self) -> frozenset[str]:
        return frozenset(f for f in BUILT_IN_FAMILIES if not getattr(self, f.replace("-", "_")))


class SkillsParams(Part):
    """The agent's skills: `dir`, a folder of the workspace holding `<name>.md` files and
    `<name>/skill.md` folders; `builtIns`, which of gg's own skill families are switched off."""

    dir: Annotated[str, Text(max_chars=1024, described="a folder path inside the workspace")] | None = None
    built_ins: BuiltInSkills | None = None


class SkillsCapability(Part):
    """The skills catalogue and `skills.readSkill`; when enabled, `dir` and `builtIns` are required."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"enabled": {"const": False}}, "required": ["enabled"]},
            "else": {"required": ["params"], "properties": {"params": {"required": ["dir", "builtIns"]}}},
        }
    )

    id: Literal[CapabilityId.SKILLS]
    enabled: Enabled = True
    params: SkillsParams = Field(default_factory=SkillsParams)


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


Entry = tuple[str, Path, Path | None]  # a skill's name, its text file, its folder (None: a file skill)


def catalogue_entries(directory: Path) -> list[Entry]:
    """The skills of `directory`, sorted by name. Raises `OSError` when it cannot be listed."""
    entries: list[Entry] = []
    for entry in sorted(directory.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_symlink():
            continue  # a link is not a skill: where it leads is not the catalogue's to follow
        if entry.is_dir() and (entry / SKILL_FILE).is_file():
            entries.append((entry.name, entry / SKILL_FILE, entry))
        elif entry.is_file() and entry.suffix == ".md" and entry.stem:
            entries.append((entry.stem, entry, None))
    return sorted(entries, key=lambda found: found[0])


def catalogue_defects(directory: Path) -> list[str]:
    """Why `directory`'s catalogue cannot be loaded, if it cannot: each reason once."""
    try:
        names = [name for name, _, _ in catalogue_entries(directory)]
    except OSError as error:
        return [f"cannot be listed: {error.strerror}"]
    twice = sorted({name for name in names if names.count(name) > 1})
    return [f"holds the skill `{name}` twice, as `{name}.md` and as `{name}/{SKILL_FILE}`" for name in twice]
