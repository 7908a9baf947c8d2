"""The run's guests, leased by language (`GuestLeases`).

Rules kept here:
- one arm per language serves every agent of the run that writes it: built on the first lease
  asked for it, closed when the run ends. An arm handed to the run (tests, an embedding caller)
  serves its own language and is left to its owner to close. A checked language
  (`CHECKED_LANGUAGES`) has one arm per set of operations withheld from the profiles that write
  it, each checking programs against the SDK those profiles are offered. Leasing is safe from several agent
  threads; each arm leases its own guest processes to the programs it runs;
- a turn holds one of its arm's guests while it computes, from its start to its end, never
  per agent: an arm has `maxParallel` of them, at most two a core (`gg.sandbox.lease.GUESTS`),
  and a turn finding none free waits in line before it asks its model, first come first served
  (`gg.agents.scheduler`), as a turn waits for its slot. While it waits on work outside gg (its
  model's reply, a subagent, a shell command, a host function) it holds none, and it comes back
  at the head of the line. So the programs of an arm running at once are at most its guests
  and those waiting on outside work, however many agents the run has;
- an agent takes its arm's guests through its own view of the line (`OwnedLine`), naming the
  guest process that holds its warm scope (`Arm.home`); the line knows which of its arms'
  processes are idle (`Arm.idle`), so a turn whose own process is idle goes first and its
  program finds its scope warm (`gg.agents.seats` keeps the line moving while it is busy);
- once the run stops (`stop`), every turn in line for a guest is let go without one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Hashable
from contextlib import contextmanager
from types import TracebackType
from typing import Self

from gg.agents.scheduler import Scheduler
from gg.agents.seats import Home
from gg.config.catalogue import DEFAULT_MAX_PARALLEL
from gg.sandbox.arms import CHECKED_LANGUAGES, build_arm
from gg.sandbox.execution import Arm
from gg.sandbox.lease import GUESTS
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.registry import Registry

ArmBuilder = Callable[[str, Registry, Registry | None], Arm]
ArmKey = tuple[str, tuple[str, ...]]  # (language, the operations its checked programs may not name)


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
        self._arms: dict[ArmKey, Arm] = {} if given is None else {(given.language, ()): given}
        self._built: set[ArmKey] = set()  # the arms the run built
        self._places = guests_of(parallel)
        self._lines: dict[str, Scheduler] = {}  # one line a language, whatever its arms
        self._stopped = False
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

    def guests(self, language: LanguageSpec, owner: str | None = None) -> OwnedLine:
        """The line for the guests of `language`'s arm, as `owner` takes them: a turn `acquire`s
        one as it starts, steps aside while it waits on outside work and `release`s it as it
        ends."""
        with self._lock:
            line = self._lines.get(language.id)
            if line is None:
                line = Scheduler(self._places, lambda: self._idle(language.id))
                self._lines[language.id] = line
                if self._stopped:
                    line.stop()
            return OwnedLine(line, lambda: self._home(language.id, owner))

    def _home(self, language: str, owner: str | None) -> Home:
        """The guest holding `owner`'s warm scope in one of `language`'s arms, if one does."""
        if owner is None:
            return None
        return next((home for arm in self._arms_of(language) if (home := arm.home(owner)) is not None), None)

    def _idle(self, language: str) -> set[Hashable]:
        """The guest processes of `language`'s arms idle now."""
        return {home for arm in self._arms_of(language) for home in arm.idle()}

    def _arms_of(self, language: str) -> list[Arm]:
        with self._lock:
            return [arm for (spoken, _), arm in self._arms.items() if spoken == language]

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


class OwnedLine:
    """One agent's view of its arm's guest line: each time it waits in line, it names the guest
    holding its warm scope, as that stands then."""

    def __init__(self, line: Scheduler, home: Callable[[], Home]) -> None:
        self._line = line
        self._home = home

    @property
    def line(self) -> Scheduler:
        """The arm's line itself, shared by every agent."""
        return self._line

    def acquire(self) -> bool:
        return self._line.acquire(home=self._home())

    def release(self) -> None:
        self._line.release()

    @contextmanager
    def stepped_aside(self, *, holding: bool = False) -> Generator[None]:
        with self._line.stepped_aside(self._home(), holding=holding):
            yield
