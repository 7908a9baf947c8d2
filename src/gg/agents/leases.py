"""The run's guests, leased by language (`GuestLeases`).

Rules kept here:
- one arm per language serves every agent of the run that writes it: built on the first lease
  asked for it, closed when the run ends. An arm handed to the run (tests, an embedding caller)
  serves its own language and is left to its owner to close. Leasing is safe from several agent
  threads; each arm leases its own guest processes to the programs it runs;
- a turn holds one of its arm's guests while it computes, from its start to its end, never
  per agent: an arm has `maxParallel` of them, at most two a core (`gg.sandbox.lease.GUESTS`),
  and a turn finding none free waits in line before it asks its model, first come first served
  (`gg.agents.scheduler`), as a turn waits for its slot. While it waits on work outside gg (its
  model's reply, a subagent, a shell command, a host function) it holds none, and it comes back
  at the head of the line. So the programs of an arm running at once are at most its guests
  and those waiting on outside work, however many agents the run has;
- once the run stops (`stop`), every turn in line for a guest is let go without one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType
from typing import Self

from gg.agents.scheduler import Scheduler
from gg.config.catalogue import DEFAULT_MAX_PARALLEL
from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm
from gg.sandbox.languages import LanguageSpec
from gg.sandbox.lease import GUESTS
from gg.sdk.registry import Registry

ArmBuilder = Callable[[str, Registry], Arm]


def guests_of(parallel: int) -> int:
    """How many turns of one arm compute at once: `maxParallel`, at most `GUESTS`."""
    return min(parallel, GUESTS)


class GuestLeases:
    def __init__(
        self,
        registry: Registry,
        given: Arm | None = None,
        build: ArmBuilder = build_arm,
        parallel: int = DEFAULT_MAX_PARALLEL,
    ) -> None:
        self._registry = registry
        self._build = build
        self._arms: dict[str, Arm] = {} if given is None else {given.language: given}
        self._built: set[str] = set()  # the languages whose arm the run built
        self._places = guests_of(parallel)
        self._lines: dict[str, Scheduler] = {}
        self._stopped = False
        self._lock = threading.Lock()

    def arm(self, language: LanguageSpec) -> Arm:
        """The run's arm for `language`. Raises `LookupError` for a language with no arm."""
        with self._lock:
            arm = self._arms.get(language.id)
            if arm is None:
                arm = self._build(language.id, self._registry)
                self._arms[language.id] = arm
                self._built.add(language.id)
            return arm

    def guests(self, language: LanguageSpec) -> Scheduler:
        """The line for the guests of `language`'s arm: a turn `acquire`s one as it starts,
        steps aside while it waits on outside work and `release`s it as it ends."""
        with self._lock:
            line = self._lines.get(language.id)
            if line is None:
                line = self._lines[language.id] = Scheduler(self._places)
                if self._stopped:
                    line.stop()
            return line

    def stop(self) -> None:
        """Let every turn in line for a guest go without one, now and from now on."""
        with self._lock:
            self._stopped = True
            lines = list(self._lines.values())
        for line in lines:
            line.stop()

    def close(self) -> None:
        """Close every arm the run built, once; an arm handed in stays open."""
        with self._lock:
            built = [self._arms.pop(language) for language in sorted(self._built)]
            self._built.clear()
        for arm in built:
            arm.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
