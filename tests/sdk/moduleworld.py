"""A program's world for the module families at the membrane, on a real arm: a scope holding a
window, a task list, a handle on a board and a thread archive, gated by the capabilities named."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gg.config.catalogue import Role
from gg.config.modules import BoardCaps, TaskMode
from gg.sandbox.execution import Arm, Execution
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.state.archive import Archive, ArchiveModule
from gg.state.board import Board, BoardHandle, IssuePolicy
from gg.state.tasks import TasksModule
from gg.state.window import ViewSet, Window
from gg.state.workspace import Workspace
from support.guest_world import CEILINGS, QuietLog

EVERY_MODULE = frozenset({"tasks", "project-management", "agent-managed-context"})


@dataclass
class ModuleAgent:
    arm: Arm
    scope: ProgramScope

    def run(self, source: str) -> Execution:
        membrane = Membrane(default_registry(), self.scope, QuietLog(), self.arm.language)
        return self.arm.run(source, membrane, CEILINGS)

    def logged(self, source: str) -> list[Any]:
        """Each line the program logged, read as JSON; the program must run cleanly."""
        execution = self.run(source)
        assert execution.ok, execution.failure
        return [json.loads(line) for line in execution.logs]


def module_agent(
    arm: Arm,
    tmp_path: Path,
    capabilities: frozenset[str] = EVERY_MODULE,
    *,
    tasks: TasksModule | None = None,
    board: BoardHandle | None = None,
    window: Window | None = None,
) -> ModuleAgent:
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    scope = ProgramScope(
        "root",
        Role.STANDARD,
        capabilities,
        Workspace(workspace),
        ViewSet(),
        1,
        window=window or Window(system="s"),
        tasks=tasks or TasksModule.fresh(10, TaskMode.SIMPLE),
        board=board or BoardHandle(Board(BoardCaps(5, 10, 0)), IssuePolicy(implementers=("impl",))),
        archive=ArchiveModule(Archive()),
        spell=default_registry().spelling(arm.language),
    )
    return ModuleAgent(arm, scope)
