"""The skills module (seed 003), in two halves: the catalogue is its profile's (`SkillShelf`, fixed
for the run; two profiles naming one directory hold one loaded copy), and the read set records
which skills' bodies this window has read.

- A name joins the read set once, at its first read, in read order.
- A fork copies the read set (the catalogue stays the profile's); a successor takes the receiving
  profile's catalogue and keeps the read set verbatim. Loaded code is not a module: it never
  crosses.
- It reports `skills_state` (its catalogue, each skill marked read or not) as it arrives with a
  holder whose catalogue offers skills, and again after each fresh read; a repeated read reports
  nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from gg.config.kinds import ModuleKind
from gg.state.module import Holder, Module
from gg.telemetry.events import Payload
from gg.telemetry.module_events import SkillsState

if TYPE_CHECKING:
    from gg.state.skills.shelf import SkillShelf


class SkillReads:
    def __init__(self, names: tuple[str, ...] = ()) -> None:
        self._names: list[str] = list(dict.fromkeys(names))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)

    def record(self, name: str) -> bool:
        """Record a read of `name`; True only for its first read."""
        if name in self._names:
            return False
        self._names.append(name)
        return True

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def fork(self) -> SkillReads:
        """An independent copy."""
        return SkillReads(self.names)

    def adopt(self) -> SkillReads:
        """The set as a successor takes it over: verbatim."""
        return self.fork()


@dataclass
class SkillsModule(Module):
    kind: ClassVar[ModuleKind] = ModuleKind.SKILLS
    catalogue: SkillShelf | None = None
    reads: SkillReads = field(default_factory=SkillReads)
    _reported: tuple[str, ...] | None = None  # the read set as last reported; None: never reported

    @classmethod
    def fresh(cls, holder: Holder) -> SkillsModule:
        return cls(holder.catalogue)

    def copy(self) -> SkillsModule:
        return SkillsModule(self.catalogue, self.reads.fork(), self.reads.names)

    def adopt(self, holder: Holder) -> SkillsModule:
        return SkillsModule(holder.catalogue, self.reads.adopt(), self.reads.names)

    def restate(self, module_id: str) -> list[Payload]:
        if self.catalogue is None or not self.catalogue.skills:
            return []
        return [self._snapshot(module_id, self.catalogue)]

    def drain(self, module_id: str) -> list[Payload]:
        if self.catalogue is None or self.reads.names == (self._reported or ()):
            return []
        return [self._snapshot(module_id, self.catalogue)]

    def _snapshot(self, module_id: str, catalogue: SkillShelf) -> SkillsState:
        self._reported = self.reads.names
        skills = [
            {"name": skill.name, "description": skill.description, "read": skill.name in self.reads}
            for skill in catalogue.skills
        ]
        return SkillsState(module_id=module_id, skills=skills)
