"""Keyword search over a store (the `keyword-search` strategy's `search_memories`).

- Keywords are trimmed, lower-cased and de-duplicated; none left is `invalid-argument`.
- A memory is searched as its slug, description and body together, case-insensitively, by plain
  substring; one matching no keyword is not a hit.
- Hits rank by how many distinct keywords they match, then by how often those occur, then by slug;
  at most `maxResults` are returned (all, when the cap is off).
- Each hit carries an excerpt of the body: up to 80 characters either side of the first match in
  the body (the top of the body when the match is in the slug or description), whitespace runs
  collapsed to one space, `…` where it was cut.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gg.state.memories.checks import invalid
from gg.state.memories.memory import Memory

EXCERPT_RADIUS = 80


@dataclass(frozen=True)
class Hit:
    name: str
    description: str
    matched: int
    occurrences: int
    excerpt: str

    def to_wire(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "matched": self.matched,
            "occurrences": self.occurrences,
            "excerpt": self.excerpt,
        }


def normalized(keywords: Sequence[str]) -> list[str]:
    """The usable keywords, in the order given. Raises `MemoryRefusal` when none is left."""
    kept = list(dict.fromkeys(word.strip().lower() for word in keywords if word.strip()))
    if not kept:
        raise invalid("`keywords` needs at least one non-empty keyword")
    return kept


def rank(memories: Iterable[Memory], keywords: Sequence[str], limit: int | None) -> list[Hit]:
    hits = [hit for memory in memories if (hit := _score(memory, keywords)) is not None]
    hits.sort(key=lambda hit: (-hit.matched, -hit.occurrences, hit.name))
    return hits if limit is None else hits[:limit]


def _score(memory: Memory, keywords: Sequence[str]) -> Hit | None:
    prefix = f"{memory.name} {memory.description} "
    haystack = (prefix + memory.body).lower()
    counts = [haystack.count(keyword) for keyword in keywords]
    matched = sum(1 for count in counts if count)
    if not matched:
        return None
    first = min(haystack.find(keyword) for keyword, count in zip(keywords, counts, strict=True) if count)
    at = max(first - len(prefix), 0)
    return Hit(memory.name, memory.description, matched, sum(counts), excerpt(memory.body, at))


def excerpt(body: str, at: int) -> str:
    start, end = max(at - EXCERPT_RADIUS, 0), min(at + EXCERPT_RADIUS, len(body))
    window = " ".join(body[start:end].split())
    return ("…" if start > 0 else "") + window + ("…" if end < len(body) else "")
