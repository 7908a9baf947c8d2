"""What an operation acts on while one program runs.

A `ProgramScope` is built by the turn for each program: what the program's calls act on (the
agent's role and capabilities, its workspace, the views, library, surface, skills read set and
memories holder it holds, the run's deadline, its port onto the run's other agents, the run's
`halt`, which raises `GgDefect(RUN_BROKEN)` once the run holds a fault), how its arm
spells the calls and arguments a message names (`spell`, which every scope a run builds carries),
and two sets of declarations the loop acts on afterwards:
- `declarations` belong to this one program: its ending (the last call wins) and its hand-over
  (the first stands, a second is refused);
- `deferred` belong to the whole turn and merge across every program of the reply: the last
  compaction stands, the first succession stands, forks and issue waits accumulate.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gg.config.catalogue import Role
from gg.deadline import time_left
from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.registry import ArmSpelling
from gg.state.skills import SkillReads

if TYPE_CHECKING:
    from gg.sdk.delegation import Delegation
    from gg.sdk.hooks import HookPort
    from gg.sdk.shell import CommandJail, ShellAccess
    from gg.sdk.surface import Surface
    from gg.state.archive import ArchiveModule
    from gg.state.board import BoardHandle
    from gg.state.library import ProgramLibrary
    from gg.state.memories import MemoryHolder
    from gg.state.tasks import TasksModule
    from gg.state.window import ViewSet, Window
    from gg.state.workspace import Workspace


@dataclass(frozen=True)
class DeclaredEnding:
    """An ending a program declared: its kind (`finish`, `approve`, `request_changes`), the
    session's final word if it survives, and a change list's items."""

    kind: str
    final_text: str
    items: tuple[str, ...] = ()


@dataclass
class Declarations:
    """What one program declared for the loop to act on after it ends."""

    ending: DeclaredEnding | None = None
    endings_replaced: int = 0
    handover: str | None = None

    def declare_ending(self, ending: DeclaredEnding) -> None:
        """The last call wins; replacements are counted for the operator's warning."""
        if self.ending is not None:
            self.endings_replaced += 1
        self.ending = ending

    def hand_over(self, source: str) -> None:
        """Register the program to run next in this one's place; the first hand-over stands."""
        if self.handover is not None:
            raise OperationError("rerun", ErrorCode.REFUSED, "this program already handed a program over")
        self.handover = source


@dataclass(frozen=True)
class Compaction:
    summary: str
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Succession:
    """An exec (`kind="exec"`, `target` a profile) or an FSM transition (`kind="transition"`)."""

    kind: str
    target: str
    note: str | None = None


@dataclass(frozen=True)
class ForkDeclaration:
    """A fork: the copy's id and slot, minted at the call, and what it is to do."""

    id: str
    prompt: str
    slot: int = 0


@dataclass
class DeferredDeclarations:
    """Declarations applied when the turn closes, merged across the reply's programs."""

    compaction: Compaction | None = None
    succession: Succession | None = None
    forks: list[ForkDeclaration] = field(default_factory=list[ForkDeclaration])
    waits: list[str] = field(default_factory=list[str])

    def compact(self, compaction: Compaction) -> None:
        """The last compaction stands."""
        self.compaction = compaction

    def succeed(self, succession: Succession, operation: str) -> None:
        """The first succession stands; a second is refused."""
        if self.succession is not None:
            raise OperationError(operation, ErrorCode.REFUSED, "a succession was already declared this turn")
        self.succession = succession

    def fork(self, fork: ForkDeclaration) -> None:
        """Forks accumulate; every one is dispatched."""
        self.forks.append(fork)

    def wait_for(self, issue: str) -> None:
        """Issue waits accumulate, each issue once."""
        if issue not in self.waits:
            self.waits.append(issue)


@dataclass
class ProgramScope:
    """Built by the loop for each program (`gg.loop.program`) from the agent's
    setup, what it holds and its run."""

    agent_id: str
    role: Role
    capabilities: frozenset[str]
    workspace: Workspace
    views: ViewSet
    turn: int
    library: ProgramLibrary | None = None
    deadline: float | None = None  # the run's wall-clock budget, on `clock`
    clock: Callable[[], float] = time.monotonic  # the run's monotonic clock
    halt: Callable[[], None] = lambda: None  # the run's `halt_if_broken`: raises once it holds a fault
    window: Window | None = None  # the agent's window, which the context family acts on
    tasks: TasksModule | None = None  # its task list, when its profile enables `tasks`
    board: BoardHandle | None = None  # its handle on the run's board, in a run that has one
    archive: ArchiveModule | None = None  # its thread archive, under `agent-managed-context`
    surface: Surface | None = None  # the agent's docs, skills and loaded code modules
    skills_read: SkillReads = field(default_factory=SkillReads)  # the skills this window has read
    shell: ShellAccess[CommandJail] | None = None  # the agent's jail, when its profile enables the shell
    delegation: Delegation | None = None  # the run's answer to the delegation family
    memories: MemoryHolder | None = None  # its memories holder, when its profile enables memories
    hooks: HookPort | None = None  # the run's hooks, as they fire for this agent
    spell: ArmSpelling | None = None  # how its arm spells calls and arguments (`Registry.spelling`)
    declarations: Declarations = field(default_factory=Declarations)
    deferred: DeferredDeclarations = field(default_factory=DeferredDeclarations)

    def time_left(self) -> float | None:
        """What is left of the run's time, read now (`gg.deadline`); None when unbounded."""
        return time_left(self.deadline, self.clock())

    def spelling(self, operation: str) -> ArmSpelling:
        """How the program's arm spells what a refusal of `operation` names."""
        if self.spell is None:  # every scope a run builds says how its arm spells a name
            raise GgDefect(FatalFault.HOST_FAULT, f"{operation} reached a scope without its arm's spelling")
        return self.spell
