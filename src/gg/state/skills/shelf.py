"""The skills catalogue (`SkillShelf`): the skills of one directory as an agent's arm reads them,
and gg's own beside them; a run holds one loaded catalogue per directory (`SkillCatalogues`).

Rules kept here:
- what a skills directory holds is the capability set's rule (`gg.config.skills`): a skill is a
  file `<name>.md` or a folder `<name>` holding `skill.md`, listed sorted by name; a name given
  both ways cannot be loaded (the launch is refused). A skill whose name holds a control or bidi
  character (the rule of names, `gg.wire.first_heading_unsafe`) is not offered: no catalogue
  lists it, and the shelf names its file (`withheld`), for the launch log to warn;
- `skill.md` may open with front matter: a `---` line, `key: value` lines, a closing `---` line.
  `description` is the skill's one-line description; the body is the text after the front matter;
- a folder skill's code module is `skill.<ext>` for the first of the arm's module extensions that
  exists (TypeScript: `ts`, then `js`; JavaScript: `js`); a file skill has none;
- two profiles naming one directory hold one loaded catalogue (`SkillCatalogues`, one per run);
- a directory's skill of the same name as one of gg's own replaces it (`offering`); the shelf
  names each it replaced (`replaced`), for the launch log to say so;
- a file over 1 MiB is `limit-exceeded`; a file that cannot be read is `io-error`;
- the skills directory lies in the workspace, and every skill file is read through the workspace's
  confinement (`gg.state.workspace`): a link is not a skill, and a file a link leads out of the
  workspace through (planted before the run or during it) is refused `io-error`, never read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gg.config.skills import catalogue_entries
from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.state.workspace import PathRefusal, Workspace
from gg.wire import first_heading_unsafe

CODE_STEM = "skill"
MAX_SKILL_FILE_BYTES = 1024 * 1024
MAX_FRONT_MATTER_BYTES = 64 * 1024  # what the catalogue reads of each skill.md for its description
FRONT_MATTER_RULE = "---"


@dataclass(frozen=True)
class Skill:
    """A skill: its name, its description, its text file and its folder (None for a file skill),
    or, for one of gg's own, its body."""

    name: str
    description: str
    file: Path | None = None
    folder: Path | None = None
    text: str | None = None  # a built-in skill's body, which no file holds


@dataclass(frozen=True)
class SkillText:
    """A skill's body and, when it has one, its code module's source and extension."""

    body: str
    code: tuple[str, str] | None


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """The front matter's `key: value` pairs and the body after it (all of `text` without one)."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != FRONT_MATTER_RULE:
        return {}, text
    for end in range(1, len(lines)):
        if lines[end].strip() == FRONT_MATTER_RULE:
            pairs = [line.split(":", 1) for line in lines[1:end] if ":" in line]
            return {key.strip(): value.strip() for key, value in pairs}, "".join(lines[end + 1 :])
    return {}, text


class SkillShelf:
    """The skills of one directory, as the agent's arm reads them, and the built-ins offered
    beside them (`offering`: the directory's skills stay the one loaded copy)."""

    def __init__(
        self,
        directory: Path,
        extensions: Sequence[str],
        skills: Sequence[Skill] | None = None,
        confinement: Workspace | None = None,
        replaced: Sequence[str] = (),
        withheld: Sequence[Path] = (),
    ) -> None:
        """The skills of `directory`, read from it unless given as `skills`, every file read
        within `confinement` (the directory itself, unless given the workspace holding it);
        `replaced` names gg's own skills a skill of the directory stands in for, `withheld` the
        files of the directory's skills not offered for their names (found by the read)."""
        self.directory = Path(os.path.realpath(directory))  # the confinement reads it from its root
        self._extensions = tuple(extensions)
        self._confinement = confinement or Workspace(directory)
        self.replaced = tuple(replaced)
        self.withheld = tuple(withheld)
        if skills is None:
            skills, self.withheld = self._scan()
        self._skills = {skill.name: skill for skill in sorted(skills, key=lambda skill: skill.name)}

    def offering(self, built_ins: Sequence[Skill]) -> SkillShelf:
        """This catalogue with `built_ins` beside it, sorted by name together; a skill of the
        directory replaces the built-in of its name. The directory is not read again."""
        if not built_ins:
            return self
        replaced = [skill.name for skill in built_ins if skill.name in self._skills]
        skills = [*self._skills.values(), *(s for s in built_ins if s.name not in self._skills)]
        return SkillShelf(
            self.directory, self._extensions, skills, self._confinement, replaced, self.withheld
        )

    @property
    def skills(self) -> list[Skill]:
        return list(self._skills.values())

    def get(self, name: str) -> Skill | None:
        return self._skills.get(name)

    def read(self, skill: Skill) -> SkillText:
        """The skill's body and code. Raises `ApiError` (`read_skill`) when a file cannot be read."""
        if skill.file is None:
            return SkillText(skill.text or "", None)
        _, body = split_front_matter(self._read_text(skill.file))
        if skill.folder is None:
            return SkillText(body, None)
        for extension in self._extensions:
            code = self._read_within(skill.folder / f"{CODE_STEM}.{extension}", absent_ok=True)
            if code is not None:
                return SkillText(body, (code, extension))
        return SkillText(body, None)

    def _scan(self) -> tuple[list[Skill], tuple[Path, ...]]:
        """The directory's skills, and the files of those whose name holds a character no name may."""
        try:
            entries = catalogue_entries(self.directory)
        except OSError as error:
            raise GgDefect(
                FatalFault.HOST_FAULT, f"the skills directory cannot be listed: {error}"
            ) from error
        named = [entry for entry in entries if first_heading_unsafe(entry[0]) is None]
        withheld = tuple(
            folder or file for name, file, folder in entries if first_heading_unsafe(name) is not None
        )
        skills = [Skill(name, self._description(file), file, folder) for name, file, folder in named]
        return skills, withheld

    def _description(self, path: Path) -> str:
        """The `description` of a skill's front matter, read from the head of its file ("" if none)."""
        try:
            with self._confinement.open_for_read(os.path.relpath(path, self._confinement.root)) as stream:
                head = stream.read(MAX_FRONT_MATTER_BYTES).decode("utf-8", "replace")
        except (PathRefusal, OSError):
            return ""
        matter, _ = split_front_matter(head)
        return matter.get("description", "")

    def _read_text(self, path: Path) -> str:
        """The file's text. Raises `ApiError` (`read_skill`)."""
        text = self._read_within(path, absent_ok=False)
        assert text is not None
        return text

    def _read_within(self, path: Path, absent_ok: bool) -> str | None:
        """The file's text, opened within the confinement; None for an absent one when `absent_ok`.
        Raises `ApiError` (`read_skill`), quoting the path from the workspace, never the host's."""
        written = os.path.relpath(path, self._confinement.root)
        try:
            with self._confinement.open_for_read(written) as stream:
                size = os.fstat(stream.fileno()).st_size
                if size > MAX_SKILL_FILE_BYTES:
                    over = f"is {size} bytes, over the {MAX_SKILL_FILE_BYTES}-byte cap"
                    raise OperationError("read_skill", ErrorCode.LIMIT_EXCEEDED, f"`{written}` {over}")
                return stream.read().decode("utf-8", "replace")
        except PathRefusal as refusal:
            if absent_ok and refusal.code is ErrorCode.NOT_FOUND:
                return None
            raise OperationError(
                "read_skill", ErrorCode.IO_ERROR, f"cannot be read: {refusal.message}"
            ) from None
        except OSError as error:
            raise OperationError(
                "read_skill", ErrorCode.IO_ERROR, f"`{written}` cannot be read: {error.strerror}"
            ) from None


class SkillCatalogues:
    """A run's loaded catalogues: one per directory (and arm's module extensions), however many
    profiles name it."""

    def __init__(self) -> None:
        self._loaded: dict[tuple[Path, tuple[str, ...]], SkillShelf] = {}

    def shelf(self, directory: Path, extensions: Sequence[str], workspace: Path | None = None) -> SkillShelf:
        """The catalogue of `directory`, its files read within `workspace` (else the directory)."""
        key = (directory.resolve(), tuple(extensions))
        if key not in self._loaded:
            confinement = None if workspace is None else Workspace(workspace)
            self._loaded[key] = SkillShelf(key[0], key[1], confinement=confinement)
        return self._loaded[key]
