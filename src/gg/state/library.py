"""The program library (seed 000): every program an agent ran, kept under an id of its own.

Rules kept here:
- an id is minted when a submission is acknowledged, before its program runs: a cuid2 of the
  agent's `id_length`, unique against every id this library ever issued (held or dropped), so a
  dropped program stays `not-found` forever; at most `MAX_MINT_ATTEMPTS` tries, after which the
  failure is gg's own (`GgDefect`, host fault);
- a replayed reply may hand over the id its call received when it was recorded; it is used when
  it is well formed and was never issued here, otherwise a fresh id is minted;
- one entry per submission that carried a program; a hand-over keeps the submission's id and
  replaces its source, so the entry holds the program that did the work;
- `keep` most recent entries are held (0 keeps all); older ones are dropped, oldest first;
- an entry is found by its id at once (`get`, `record`), however many are held;
- a fork clones entries and issued ids; a succession adopts them truncated to its own `keep`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from cuid2 import Cuid

from gg.errors import FatalFault, GgDefect

MAX_MINT_ATTEMPTS = 16

Minter = Callable[[int], str]
"""Given a length, a candidate id; `cuid2_minter` in production, injectable for tests."""


def cuid2_minter(length: int) -> str:
    return Cuid(length=length).generate()


@dataclass(frozen=True)
class LibraryEntry:
    """One kept program: `error` is the failure text the model read, when it failed."""

    id: str
    turn: int
    source: str
    ok: bool
    error: str | None = None

    @property
    def lines(self) -> int:
        return len(self.source.splitlines())

    @property
    def chars(self) -> int:
        return len(self.source)


@dataclass
class ProgramLibrary:
    keep: int
    id_length: int
    minter: Minter = cuid2_minter
    entries: list[LibraryEntry] = field(default_factory=list[LibraryEntry])
    issued: set[str] = field(default_factory=set[str])
    _held: dict[str, LibraryEntry] = field(
        default_factory=dict[str, LibraryEntry], init=False, repr=False, compare=False
    )  # the held entries by id

    def __post_init__(self) -> None:
        self._held = {entry.id: entry for entry in self.entries}

    def mint(self, recorded: str | None = None) -> str:
        """A new id for a submission; `recorded` is a replayed receipt to reuse when it can be."""
        if recorded is not None and self._is_fresh(recorded):
            self.issued.add(recorded)
            return recorded
        for _ in range(MAX_MINT_ATTEMPTS):
            candidate = self.minter(self.id_length)
            if self._is_fresh(candidate):
                self.issued.add(candidate)
                return candidate
        raise GgDefect(
            FatalFault.HOST_FAULT,
            f"could not mint a fresh program id of length {self.id_length} in {MAX_MINT_ATTEMPTS} attempts",
        )

    def record(self, entry: LibraryEntry) -> list[str]:
        """Keep `entry` (replacing the entry of the same id); returns the ids retention dropped."""
        replaced = self._held.get(entry.id)
        self._held[entry.id] = entry
        if replaced is not None:
            self.entries[self.entries.index(replaced)] = entry
            return []
        self.entries.append(entry)
        return self._apply_retention(self.keep)

    def get(self, program_id: str) -> LibraryEntry | None:
        return self._held.get(program_id)

    def fork(self) -> ProgramLibrary:
        """An independent copy: its own entries and its own record of issued ids."""
        return replace(self, entries=list(self.entries), issued=set(self.issued))

    def adopted_by(self, keep: int, id_length: int) -> ProgramLibrary:
        """What a successor holds: these entries and issued ids, truncated to its own `keep`."""
        successor = ProgramLibrary(keep, id_length, self.minter, list(self.entries), set(self.issued))
        successor._apply_retention(keep)
        return successor

    def _apply_retention(self, keep: int) -> list[str]:
        if keep == 0 or len(self.entries) <= keep:
            return []
        dropped = self.entries[: len(self.entries) - keep]
        del self.entries[: len(dropped)]
        for entry in dropped:
            del self._held[entry.id]
        return [entry.id for entry in dropped]

    def _is_fresh(self, candidate: str) -> bool:
        well_formed = re.fullmatch(rf"[a-z][a-z0-9]{{{self.id_length - 1}}}", candidate) is not None
        return well_formed and candidate not in self.issued
