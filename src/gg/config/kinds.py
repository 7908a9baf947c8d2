"""The module vocabulary (seed 003), declared once: the six kinds, how a holder came by its store,
and what a fork or a succession did to each kind. Every spelling here is the wire's and the
capability set's (an FSM edge's `transfer` list is written in the kind names).

- The kinds are a closed list, always in this order: history, memories, tasks, board, skills,
  archive (`KIND_ORDER`).
- Each kind but history is held by a profile that enables its capability (`KIND_CAPABILITY`);
  history is held by every agent. The board is the run's: in a run that has one, every agent
  holds it, with or without the capability.
"""

from __future__ import annotations

from enum import StrEnum


class ModuleKind(StrEnum):
    HISTORY = "history"
    MEMORIES = "memories"
    TASKS = "tasks"
    BOARD = "board"
    SKILLS = "skills"
    ARCHIVE = "archive"


KIND_ORDER: tuple[ModuleKind, ...] = tuple(ModuleKind)

KIND_CAPABILITY: dict[ModuleKind, str | None] = {
    ModuleKind.HISTORY: None,
    ModuleKind.MEMORIES: "memories",
    ModuleKind.TASKS: "tasks",
    ModuleKind.BOARD: "project-management",
    ModuleKind.SKILLS: "skills",
    ModuleKind.ARCHIVE: "agent-managed-context",
}


class Origin(StrEnum):
    """How a holder came by its store (a roster row's `origin`)."""

    CREATED = "created"
    INHERITED = "inherited"
    PROFILE = "profile"
    RUN = "run"
    TRANSFERRED = "transferred"
    FORKED = "forked"


class Disposition(StrEnum):
    """What a fork or a succession did to one kind (an `agent_transition.modules` row)."""

    CARRIED = "carried"
    COPIED = "copied"
    LINKED = "linked"
    DROPPED = "dropped"
    INITIALIZED = "initialized"
    ABSENT = "absent"


def held_by_profile(kind: ModuleKind, capabilities: frozenset[str], run_has_board: bool = False) -> bool:
    """Whether a profile enabling `capabilities` holds `kind` (in a run with a board or not)."""
    if kind is ModuleKind.HISTORY:
        return True
    if kind is ModuleKind.BOARD and run_has_board:
        return True
    return KIND_CAPABILITY[kind] in capabilities
