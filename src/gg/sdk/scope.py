"""What an operation acts on while one program runs.

A `ProgramScope` is built by the turn for each program: the live agent state the program's calls
act on (workspace, views) and the declarations the program makes (an ending), which the turn reads
once the program is over. Handlers receive it with their validated, camelCase arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gg.sdk.registry import Role

if TYPE_CHECKING:
    from gg.state.views import ViewSet
    from gg.state.workspace import Workspace


@dataclass(frozen=True)
class DeclaredEnding:
    """An ending a program declared: its kind (`finish`, `approve`, `request_changes`) and the
    session's final word if it survives."""

    kind: str
    final_text: str


@dataclass
class Declarations:
    """What one program declared for the loop to act on after it ends."""

    ending: DeclaredEnding | None = None
    endings_replaced: int = 0

    def declare_ending(self, ending: DeclaredEnding) -> None:
        """The last call wins; replacements are counted for the operator's warning."""
        if self.ending is not None:
            self.endings_replaced += 1
        self.ending = ending


@dataclass
class ProgramScope:
    agent_id: str
    role: Role
    capabilities: frozenset[str]
    workspace: Workspace
    views: ViewSet
    turn: int
    declarations: Declarations = field(default_factory=Declarations)
