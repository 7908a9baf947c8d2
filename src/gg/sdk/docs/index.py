"""One agent's documentation: the entries it may read, how a search ranks them, how a name finds one.

Rules kept here:
- the index holds only what this agent may use: the functions it may call, the modules holding at
  least one of them, those modules' types, and the exports of the code modules loaded for it;
- an entry is a `module`, a `function` or a `type`, filed under its key (`gg.files`,
  `gg.files.readFile`, `gg.files.FileRead`, `lib:csvTools`, `lib:csvTools.parse`; a Python code
  module's `lib.csv_tools`, `lib.csv_tools.parse`);
- a search matches words: the query's words (letters and digits, lower-cased, two characters or
  more) against each entry's words (its name split at case changes, its module, its summary and
  parameter words). A word scores 3 when it begins a word of the name, 2 when it begins the
  module's name, 1 when it begins any other word; an entry with a score above 0 matches, best
  score first, declaration order among equals. Without a query every entry the filters keep
  matches, in declaration order;
- a module filter accepts `files`, `gg:files`, `gg.files`, `lib:csvTools`, `lib.csv_tools`,
  `csvTools` or `csv_tools`;
- a name finds its entry as written (`gg.files.readFile`), with `gg.`, `lib:` or `lib.` put in
  front (`files.readFile`, `csvTools.parse`), or bare (`readFile`) when exactly one entry bears it.
  Otherwise it finds nothing, and up to three close keys are suggested.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

MAX_SUGGESTIONS = 3
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_MIN_QUERY_WORD = 2


class DocKind(StrEnum):
    MODULE = "module"
    FUNCTION = "function"
    TYPE = "type"


@dataclass(frozen=True)
class DocEntry:
    """One page of documentation: what it documents, its one-line summary and its body."""

    key: str
    kind: DocKind
    module: str  # `files` or `lib:csvTools`
    name: str
    summary: str
    body: str
    extra_words: tuple[str, ...] = ()  # parameter names and the like, for search
    later: Callable[[], str] | None = field(default=None, compare=False)  # what the page adds as it is
    # read (the shape of the last result the run saw, for a result declared unknown)

    def text(self) -> str:
        """The page as it reads now: its body, then what it adds as it is read."""
        return self.body if self.later is None else f"{self.body}\n\n{self.later()}"

    def hit(self) -> dict[str, str]:
        """The record a search hands back for this entry (a `DocHit`)."""
        return {
            "key": self.key,
            "kind": self.kind.value,
            "module": self.module,
            "name": self.name,
            "summary": self.summary,
        }


def words_of(text: str) -> list[str]:
    """Lower-cased words of `text`, split at case changes and at anything not a letter or digit."""
    return [word.lower() for word in _WORD.findall(text)]


class DocIndex:
    """The entries of one agent's documentation, in declaration order."""

    def __init__(self, entries: Iterable[DocEntry] = ()) -> None:
        self._entries: dict[str, DocEntry] = {}
        self.add(entries)

    def add(self, entries: Iterable[DocEntry]) -> None:
        """File `entries`; an entry under a key already filed replaces it in place."""
        for entry in entries:
            self._entries[entry.key] = entry

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def modules(self) -> list[str]:
        return list(dict.fromkeys(entry.module for entry in self._entries.values()))

    def module_named(self, name: str) -> str | None:
        """The module `name` stands for (`gg:files`, `gg.files`, `files`, `csvTools`), or None."""
        known = self.modules()
        for candidate in (
            name,
            name.removeprefix("gg:"),
            name.removeprefix("gg."),
            f"lib:{name}",
            f"lib.{name}",
        ):
            if candidate in known:
                return candidate
        return None

    def search(self, query: str, modules: Sequence[str], kind: DocKind | None) -> list[DocEntry]:
        """The entries matching `query` (may be blank) within `modules` (empty: all) and `kind`."""
        kept = [
            entry
            for entry in self._entries.values()
            if (not modules or entry.module in modules) and (kind is None or entry.kind is kind)
        ]
        wanted = [word for word in words_of(query) if len(word) >= _MIN_QUERY_WORD]
        if not wanted:
            return kept if not query.strip() else []
        scored = [(_score(entry, wanted), order, entry) for order, entry in enumerate(kept)]
        return [entry for score, _, entry in sorted(scored, key=lambda s: (-s[0], s[1])) if score > 0]

    def find(self, target: str) -> DocEntry | None:
        """The entry `target` names, or None (see the module's rules)."""
        for key in (target, f"gg.{target}", f"lib:{target}", f"lib.{target}"):
            if key in self._entries:
                return self._entries[key]
        bare = [entry for entry in self._entries.values() if entry.name == target]
        return bare[0] if len(bare) == 1 else None

    def suggestions(self, target: str) -> list[str]:
        """Up to three keys close to `target`."""
        bare = [entry.key for entry in self._entries.values() if entry.name == target]
        if bare:
            return bare[:MAX_SUGGESTIONS]
        short = {_short(key): key for key in self._entries}
        close = difflib.get_close_matches(target, [*self._entries, *short], n=MAX_SUGGESTIONS * 2, cutoff=0.5)
        keys = [short.get(match, match) for match in close]
        return list(dict.fromkeys(keys))[:MAX_SUGGESTIONS]


def _short(key: str) -> str:
    return key.removeprefix("gg.").removeprefix("lib:").removeprefix("lib.")


def _score(entry: DocEntry, wanted: Sequence[str]) -> int:
    name_words = [*words_of(entry.name), entry.name.lower()]
    module_words = words_of(entry.module.removeprefix("lib:").removeprefix("lib."))
    other_words = words_of(" ".join((entry.summary, *entry.extra_words)))
    score = 0
    for word in wanted:
        if any(w.startswith(word) for w in name_words):
            score += 3
        elif any(w.startswith(word) for w in module_words):
            score += 2
        elif any(w.startswith(word) for w in other_words):
            score += 1
    return score
