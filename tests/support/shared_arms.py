"""The session's shared arms (see `conftest.py`): which arm a test gets, and the shelf that holds
one arm per language and registry builder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry
from gg.sdk.registry import Registry

RegistryBuilder = Callable[[], Registry]


@dataclass(frozen=True)
class ArmSpec:
    """Which shared arm a test gets: its language and the builder of its registry."""

    language: str
    registry: RegistryBuilder = default_registry


@dataclass
class ArmShelf:
    """The session's arms, one per language and registry builder, built on first use."""

    built: dict[ArmSpec, Arm] = field(default_factory=dict)

    def get(self, language: str, registry: RegistryBuilder = default_registry) -> Arm:
        spec = ArmSpec(language, registry)
        if spec not in self.built:
            self.built[spec] = build_arm(language, registry())
        return self.built[spec]

    def close(self) -> None:
        for arm in self.built.values():
            arm.close()
