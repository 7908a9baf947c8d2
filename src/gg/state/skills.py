"""The read half of the skills module (seed 003): which skills' bodies this window has read.

The catalogue is the profile's (`gg.sdk.skills.SkillShelf`, fixed for the run); the read set is
the holder's and follows its window. A name is recorded once, at its first read, in read order.
A fork copies the set; a successor takes it over verbatim, beside its own profile's catalogue.
"""

from __future__ import annotations


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
