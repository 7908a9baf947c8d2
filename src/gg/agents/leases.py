"""The run's guests, leased by language (`GuestLeases`).

One arm per language serves every agent of the run that writes it: built on the first lease
asked for it, closed when the run ends. A checked language (`CHECKED_LANGUAGES`) has one arm per
set of operations withheld from the profiles that write it, each checking programs against the
SDK those profiles are offered. An arm handed to the run (tests, an embedding caller)
serves its own language and is left to its owner to close. Leasing is safe from several agent
threads; each arm leases its own guest processes to the programs it runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType
from typing import Self

from gg.sandbox.arms import CHECKED_LANGUAGES, build_arm
from gg.sandbox.execution import Arm
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.registry import Registry

ArmBuilder = Callable[[str, Registry, Registry | None], Arm]
ArmKey = tuple[str, tuple[str, ...]]  # (language, the operations its checked programs may not name)


class GuestLeases:
    def __init__(self, registry: Registry, given: Arm | None = None, build: ArmBuilder = build_arm) -> None:
        self._registry = registry
        self._build = build
        self._arms: dict[ArmKey, Arm] = {} if given is None else {(given.language, ()): given}
        self._built: set[ArmKey] = set()  # the arms the run built
        self._lock = threading.Lock()

    def arm(self, language: LanguageSpec, offered: Registry | None = None) -> Arm:
        """The run's arm for `language`, for an agent `offered` that SDK (the run's when None).
        Raises `LookupError` for a language with no arm."""
        withheld = () if offered is None or language.id not in CHECKED_LANGUAGES else offered.withheld
        key = (language.id, withheld)
        with self._lock:
            arm = self._arms.get(key)
            if arm is None:
                arm = self._build(language.id, self._registry, offered if withheld else None)
                self._arms[key] = arm
                self._built.add(key)
            return arm

    def close(self) -> None:
        """Close every arm the run built, once; an arm handed in stays open."""
        with self._lock:
            built = [self._arms.pop(key) for key in sorted(self._built)]
            self._built.clear()
        for arm in built:
            arm.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
