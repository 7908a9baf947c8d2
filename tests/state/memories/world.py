"""Builders for the memories tests: a profile's settings, a run's store ids and registry, and
holders opened the way a run opens them."""

from __future__ import annotations

from dataclasses import dataclass, field

from gg.config.memories import CapName, Caps, MemoryProfile, Scope, Strategy
from gg.state.memories import Draft, MemoryHolder, ProfileStores, open_holder
from gg.state.storeids import StoreIds

OFF = dict.fromkeys(CapName, 0)


def profile(
    strategy: Strategy = Strategy.SCRATCHPAD,
    scope: Scope = Scope.ISOLATED,
    slug: str = "root",
    **caps: int,
) -> MemoryProfile:
    """A profile's memories: every cap off unless named (`max_count=2`)."""
    written = {**OFF, **{CapName[name.upper()]: value for name, value in caps.items()}}
    return MemoryProfile(slug, strategy, Caps.resolve(strategy, written), scope)


@dataclass
class Run:
    ids: StoreIds = field(default_factory=StoreIds)
    registry: ProfileStores = field(default_factory=ProfileStores)

    def open(
        self, settings: MemoryProfile, agent_id: str, spawner: MemoryHolder | None = None
    ) -> MemoryHolder:
        return open_holder(settings, agent_id, self.ids, self.registry, spawner)


def note(name: str, body: str = "b", description: str = "d", **code: str) -> Draft:
    return Draft(name, description, body, code.get("code"), code.get("on_use"))


class Spelt:
    """An arm's spelling (`gg.state.module.ArmNames`) that shows what it was asked to spell."""

    def __call__(self, key: str, /) -> str:
        return f"<{key.rsplit('.', 1)[-1]} as the arm spells it>"

    def argument(self, name: str) -> str:
        return f"<{name} as the arm writes it>"


SPELT = Spelt()
