"""How a holder is bound to its store: the declared scope, how it came by the store, and the
profile settings every binding is decided from.

- `scope` (required): `isolated` (a store of its own), `shared` (the one store of its profile in
  the run), `inherited` (its spawner's store, when the spawner organizes memories the same way;
  its own otherwise), `read-only` (as `inherited`, without writing; a store of its own stays
  writable). Write access belongs to the holder, never to the store.
- `origin` (the roster's `Origin`, `gg.config.kinds`): `created` (a store of its own), `inherited`
  (its spawner's), `profile` (its profile's), `transferred` (carried across an exec or a machine's
  move), `forked` (received by a fork copy); a memories holder never has the board's `run`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gg.config.kinds import Origin
from gg.state.memories.caps import Caps
from gg.state.memories.strategy import Strategy


class Scope(StrEnum):
    ISOLATED = "isolated"
    SHARED = "shared"
    INHERITED = "inherited"
    READ_ONLY = "read-only"

    @property
    def inherits(self) -> bool:
        """Takes its spawner's store when it can."""
        return self in (Scope.INHERITED, Scope.READ_ONLY)


__all__ = ["MemoryProfile", "Origin", "Scope"]


@dataclass(frozen=True)
class MemoryProfile:
    """What one profile's enabled `memories` capability resolves to."""

    profile: str  # the profile's slug: the key of its `shared` store
    strategy: Strategy
    caps: Caps
    scope: Scope
