"""What a profile's enabled memories capability resolves to (`MemoryProfile`): its strategy, its
caps and its scope, the settings every binding of a holder to a store is decided from
(`gg.state.memories.scopes`).

- `scope` (required): `isolated` (a store of its own), `shared` (the one store of its profile in
  the run), `inherited` (its spawner's store, when the spawner organizes memories the same way;
  its own otherwise), `read-only` (as `inherited`, without writing, whichever store it binds:
  with no spawner's store to read, its own, which stays empty). Write access belongs to the
  holder, never to the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gg.config.memories.caps import Caps
from gg.config.memories.strategy import Strategy


class Scope(StrEnum):
    ISOLATED = "isolated"
    SHARED = "shared"
    INHERITED = "inherited"
    READ_ONLY = "read-only"

    @property
    def inherits(self) -> bool:
        """Takes its spawner's store when it can."""
        return self in (Scope.INHERITED, Scope.READ_ONLY)


__all__ = ["MemoryProfile", "Scope"]


@dataclass(frozen=True)
class MemoryProfile:
    """What one profile's enabled `memories` capability resolves to."""

    profile: str  # the profile's slug: the key of its `shared` store
    strategy: Strategy
    caps: Caps
    scope: Scope
