"""The capabilities behind the task list, the board and the thread archive (seed 003), their models,
their rules and what a run reads off them.

Shape rules (the models; every param is judged whenever written, even with the capability off):
- `tasks.params`: `maxTasks`, a whole number of at least 1; `mode`, `simple` or `issues`;
- `project-management.params`: `maxEpics` and `maxIssues`, whole numbers of at least 1;
  `maxRetries`, a whole number of at least 0; `reviewers`, true or false (absent: false), whether
  the profile's agents must name a reviewer on every issue they file;
- `agent-managed-context.params`: none. `topFileViews` and `signalThresholdPercent` are refused
  with why (`AgentManagedContextParams.RETIRED`): they sized a context-usage signal (how many file
  views it names, how full the window is before it shows), and gg shows no such signal, because
  it knows no window limit to be full against.
Rules on the document as written (`module_findings`, each at its key path, every one at once):
- an enabled capability writes every param it requires (`maxTasks` and `mode`; `maxEpics`,
  `maxIssues` and `maxRetries`; the skills' `dir` and `builtIns`): gg substitutes none;
- the board's caps are the run's: read off the first profile that enables `project-management`,
  and a profile that enables it with a different value refuses the launch.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from gg.config.catalogue import CapabilityId
from gg.config.defects import Finding, Loc, mapping, sequence
from gg.config.machines import enabled_capabilities
from gg.config.part import Enabled, Part
from gg.config.values import Choice, Flag, Whole

__all__ = [
    "AgentManagedContextCapability",
    "AgentManagedContextParams",
    "BoardCaps",
    "ProjectManagementCapability",
    "ProjectManagementParams",
    "TaskListSettings",
    "TaskMode",
    "TasksCapability",
    "TasksParams",
    "board_caps",
    "module_findings",
    "reviewers_required",
    "task_list",
]

C = TypeVar("C", bound=BaseModel)
_REQUIRED: dict[CapabilityId, tuple[str, ...]] = {
    CapabilityId.TASKS: ("maxTasks", "mode"),
    CapabilityId.PROJECT_MANAGEMENT: ("maxEpics", "maxIssues", "maxRetries"),
    CapabilityId.SKILLS: ("dir", "builtIns"),
}
_RUN_LEVEL = ("maxEpics", "maxIssues", "maxRetries")


def _required_when_enabled(*keys: str) -> dict[str, Any]:
    return {
        "if": {"properties": {"enabled": {"const": False}}, "required": ["enabled"]},
        "else": {"required": ["params"], "properties": {"params": {"required": list(keys)}}},
    }


class TaskMode(StrEnum):
    """What a task must carry: a title (`simple`), or also an issue's three sections (`issues`)."""

    SIMPLE = "simple"
    ISSUES = "issues"


@dataclass(frozen=True)
class TaskListSettings:
    """A profile's task list: at most `max_tasks` tasks, shaped by `mode`."""

    max_tasks: int
    mode: TaskMode


@dataclass(frozen=True)
class BoardCaps:
    """The run's board: at most `max_epics` epics and `max_issues` issues; an issue's unfinished
    work or review is taken up again `max_retries` times at most (`gg.state.board.lifecycle`)."""

    max_epics: int
    max_issues: int
    max_retries: int


class TasksParams(Part):
    max_tasks: Annotated[int, Whole(1, what="a whole number of tasks")] | None = None
    mode: Annotated[TaskMode, Choice(TaskMode)] | None = None


class TasksCapability(Part):
    """The agent's own task list (`gg.tasks`); when enabled, `maxTasks` and `mode` are required."""

    model_config = ConfigDict(json_schema_extra=_required_when_enabled(*_REQUIRED[CapabilityId.TASKS]))

    id: Literal[CapabilityId.TASKS]
    enabled: Enabled = True
    params: TasksParams = Field(default_factory=TasksParams)


class ProjectManagementParams(Part):
    max_epics: Annotated[int, Whole(1, what="a whole number of epics")] | None = None
    max_issues: Annotated[int, Whole(1, what="a whole number of issues")] | None = None
    max_retries: Annotated[int, Whole(0, what="a whole number of retries")] | None = None
    reviewers: Annotated[bool, Flag()] | None = None


class ProjectManagementCapability(Part):
    """The run's board (`gg.board`); when enabled, `maxEpics`, `maxIssues`, `maxRetries` are required."""

    model_config = ConfigDict(
        json_schema_extra=_required_when_enabled(*_REQUIRED[CapabilityId.PROJECT_MANAGEMENT])
    )

    id: Literal[CapabilityId.PROJECT_MANAGEMENT]
    enabled: Enabled = True
    params: ProjectManagementParams = Field(default_factory=ProjectManagementParams)


_NO_SIGNAL = (
    "gg shows no context-usage signal, because it knows no window limit to be full against "
    "(`views.current()` lists every open view with what it costs); remove it"
)


class AgentManagedContextParams(Part):
    """None: the capability is switched on or off, and that is all it says."""

    RETIRED: ClassVar[dict[str, str]] = {
        "topFileViews": f"it sized the context-usage signal's list of the largest file views; {_NO_SIGNAL}",
        "signalThresholdPercent": (
            f"it sized the context-usage signal: how full the window is before it shows; {_NO_SIGNAL}"
        ),
    }


class AgentManagedContextCapability(Part):
    """The agent reclaims its own window (`gg.context.archiveThread`, `gg.views.close`, ...)."""

    id: Literal[CapabilityId.AGENT_MANAGED_CONTEXT]
    enabled: Enabled = True
    params: AgentManagedContextParams = Field(default_factory=AgentManagedContextParams)


def _enabled(capabilities: Sequence[object], kind: type[C]) -> C | None:
    return next((c for c in capabilities if isinstance(c, kind) and getattr(c, "enabled", False)), None)


def task_list(capabilities: Sequence[object]) -> TaskListSettings | None:
    """A profile's task-list settings, or None when its `capabilities` do not enable `tasks`."""
    found = _enabled(capabilities, TasksCapability)
    if found is None or found.params.max_tasks is None or found.params.mode is None:
        return None
    return TaskListSettings(found.params.max_tasks, found.params.mode)


def board_caps(profiles: Sequence[Sequence[object]]) -> BoardCaps | None:
    """The run's board caps, off the first profile (by its capabilities) enabling
    `project-management`; None when no profile does, and the run has no board."""
    for capabilities in profiles:
        found = _enabled(capabilities, ProjectManagementCapability)
        if found is not None:
            params = found.params
            if params.max_epics is None or params.max_issues is None or params.max_retries is None:
                return None
            return BoardCaps(params.max_epics, params.max_issues, params.max_retries)
    return None


def reviewers_required(capabilities: Sequence[object]) -> bool:
    """Whether a profile's agents must name a reviewer on every issue they file."""
    found = _enabled(capabilities, ProjectManagementCapability)
    return found is not None and found.params.reviewers is True


def module_findings(agents: Sequence[Any]) -> Iterator[Finding]:
    """Every defect of the module capabilities, judged on the document as written."""
    first: tuple[int, Mapping[str, Any]] | None = None  # the profile the board's caps are read off
    for index, agent in enumerate(agents):
        profile = mapping(agent) or {}
        listed = sequence(profile.get("capabilities")) or []
        for kind_id, number in enabled_capabilities(profile).items():
            if kind_id not in {kind.value for kind in _REQUIRED}:
                continue
            loc: Loc = ("agents", index, "capabilities", number)
            kind = CapabilityId(kind_id)
            params = mapping((mapping(listed[number]) or {}).get("params", {})) or {}
            yield from _missing(kind, params, loc)
            if kind is CapabilityId.PROJECT_MANAGEMENT:
                if first is None:
                    first = (index, params)
                else:
                    yield from _diverging(first, params, loc)


def _missing(kind: CapabilityId, params: Mapping[str, Any], loc: Loc) -> Iterator[Finding]:
    for key in _REQUIRED[kind]:
        if params.get(key) is None:
            yield Finding((*loc, "params", key), f"is required when {kind.value} is enabled")


def _diverging(
    first: tuple[int, Mapping[str, Any]], params: Mapping[str, Any], loc: Loc
) -> Iterator[Finding]:
    origin, written = first
    for key in _RUN_LEVEL:
        if params.get(key) is not None and written.get(key) is not None and params[key] != written[key]:
            yield Finding(
                (*loc, "params", key),
                f"differs from agents[{origin}]'s {written[key]!r}: the board is the run's, "
                "and its caps are read off the first profile that enables it",
            )
