"""The wire names the console reads beyond those telemetry emits today: the agents and modules
events (seed 003; `anchor-state.md` §0, §5), their kinds, origins and dispositions.

Telemetry declares an event type in `EventType` when it starts emitting it; until then the
console reads it under the spelling declared here, so each name has one home on this side.
"""

from __future__ import annotations

from enum import StrEnum


class AgentEvent(StrEnum):
    """Events of a run of many agents."""

    AGENT_SPAWNED = "agent_spawned"
    AGENT_TRANSITION = "agent_transition"
    AGENT_FINISHED = "agent_finished"
    AGENT_MODULES = "agent_modules"
    AGENT_SURFACE = "agent_surface"
    FSM_STATE = "fsm_state"
    CONTEXT_BREAKDOWN = "context_breakdown"


class ModuleEvent(StrEnum):
    """Snapshots and the one delta of the module kinds."""

    MEMORY_STATE = "memory_state"
    MEMORY_REVISION = "memory_revision"
    TASKS_STATE = "tasks_state"
    BOARD_STATE = "board_state"
    SKILLS_STATE = "skills_state"
    ARCHIVE_STATE = "archive_state"


class ModuleKind(StrEnum):
    """The six kinds, a closed list, in the order every surface shows them."""

    HISTORY = "history"
    MEMORIES = "memories"
    TASKS = "tasks"
    BOARD = "board"
    SKILLS = "skills"
    ARCHIVE = "archive"


KIND_ORDER: tuple[ModuleKind, ...] = tuple(ModuleKind)

SNAPSHOT_KIND: dict[str, ModuleKind] = {
    ModuleEvent.MEMORY_STATE: ModuleKind.MEMORIES,
    ModuleEvent.TASKS_STATE: ModuleKind.TASKS,
    ModuleEvent.BOARD_STATE: ModuleKind.BOARD,
    ModuleEvent.SKILLS_STATE: ModuleKind.SKILLS,
    ModuleEvent.ARCHIVE_STATE: ModuleKind.ARCHIVE,
}

# The context band each kind costs its holder's window; history is the whole window and the
# archive has no band by construction.
KIND_BAND: dict[ModuleKind, str | None] = {
    ModuleKind.HISTORY: None,
    ModuleKind.MEMORIES: "Memory",
    ModuleKind.TASKS: "TaskList",
    ModuleKind.BOARD: "Board",
    ModuleKind.SKILLS: "Skill",
    ModuleKind.ARCHIVE: None,
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
    """What a succession or a fork did to one kind (an `agent_transition.modules` row)."""

    CARRIED = "carried"
    COPIED = "copied"
    LINKED = "linked"
    DROPPED = "dropped"
    INITIALIZED = "initialized"
    ABSENT = "absent"


class TransitionKind(StrEnum):
    EXEC = "exec"
    FORK = "fork"
    FSM = "fsm"


ROOT_AGENT = "root"
