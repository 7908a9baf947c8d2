"""The wire names the console reads: the agents and modules events (seed 003; `anchor-state.md`
§0, §5), their kinds, origins and dispositions.

Every name gg emits has its one declaration where it is emitted (`gg.telemetry.events` for event
types and transition kinds, `gg.config.kinds` for module kinds, origins and dispositions) and is
read here under that spelling (`context_breakdown` and its band names too). The one event no
part of gg emits yet (`agent_surface`) is declared here until one does.
"""

from __future__ import annotations

from enum import StrEnum

from gg.config.kinds import KIND_ORDER, Disposition, ModuleKind, Origin
from gg.ids import ROOT_ID
from gg.telemetry.agent_events import TransitionKind
from gg.telemetry.breakdown import ContextBand
from gg.telemetry.events import EventType

__all__ = [
    "KIND_BAND",
    "KIND_ORDER",
    "ROOT_AGENT",
    "SNAPSHOT_KIND",
    "AgentEvent",
    "Disposition",
    "ModuleEvent",
    "ModuleKind",
    "Origin",
    "TransitionKind",
]


class AgentEvent(StrEnum):
    """Events of a run of many agents."""

    AGENT_SPAWNED = EventType.AGENT_SPAWNED.value
    AGENT_TRANSITION = EventType.AGENT_TRANSITION.value
    AGENT_FINISHED = EventType.AGENT_FINISHED.value
    AGENT_MODULES = EventType.AGENT_MODULES.value
    AGENT_SURFACE = "agent_surface"
    FSM_STATE = EventType.FSM_STATE.value
    CONTEXT_BREAKDOWN = EventType.CONTEXT_BREAKDOWN.value


class ModuleEvent(StrEnum):
    """Snapshots and the one delta of the module kinds."""

    MEMORY_STATE = EventType.MEMORY_STATE.value
    MEMORY_REVISION = EventType.MEMORY_REVISION.value
    TASKS_STATE = EventType.TASKS_STATE.value
    BOARD_STATE = EventType.BOARD_STATE.value
    SKILLS_STATE = EventType.SKILLS_STATE.value
    ARCHIVE_STATE = EventType.ARCHIVE_STATE.value


SNAPSHOT_KIND: dict[str, ModuleKind] = {
    ModuleEvent.MEMORY_STATE: ModuleKind.MEMORIES,
    ModuleEvent.TASKS_STATE: ModuleKind.TASKS,
    ModuleEvent.BOARD_STATE: ModuleKind.BOARD,
    ModuleEvent.SKILLS_STATE: ModuleKind.SKILLS,
    ModuleEvent.ARCHIVE_STATE: ModuleKind.ARCHIVE,
}

# The context band each kind costs its holder's window; history is the whole window, the board's
# band is always empty, and the archive has no band by construction.
KIND_BAND: dict[ModuleKind, str | None] = {
    ModuleKind.HISTORY: None,
    ModuleKind.MEMORIES: ContextBand.MEMORY.value,
    ModuleKind.TASKS: ContextBand.TASK_LIST.value,
    ModuleKind.BOARD: ContextBand.BOARD.value,
    ModuleKind.SKILLS: ContextBand.SKILL.value,
    ModuleKind.ARCHIVE: None,
}

ROOT_AGENT = ROOT_ID
