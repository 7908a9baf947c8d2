"""The study file as written: frozen pydantic models, keys camelCase, unknown keys refused.

Shape rules enforced here (cross-field rules live in `rules.py`; the capability sets themselves
are judged by gg's own loader, in `configs.py`):
- `name`, `configs` (at least one) and `tasks` (at least one) are required;
- a config is a path to a capability-set file, or an object of keys laid over `base` (a
  capability-set file or object); with no `base`, an object config is a whole capability set;
- a task names its workspace template (a folder), its text, and its check; `journals` maps config
  names to the replay journal that config answers this task with;
- `repeats` is a whole number from 1 to `MAX_REPEATS` (default 1), `seed` one of 0 or more
  (default 0); `limits` are capability-set ceilings laid over every config's own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from gg.config.model import Limits
from gg.config.values import Name, Number, Place, Text, Whole
from gg.wire import camel

__all__ = [
    "DEFAULT_CHECK_TIMEOUT_SECS",
    "MAX_CHECK_TIMEOUT_SECS",
    "MAX_REPEATS",
    "CheckDocument",
    "StudyDocument",
    "TaskDocument",
]

MAX_REPEATS = 1000
DEFAULT_CHECK_TIMEOUT_SECS = 60.0
MAX_CHECK_TIMEOUT_SECS = 3600.0

_CONFIG_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "string", "minLength": 1, "description": "A capability-set file (or a folder holding one)"},
        {
            "type": "object",
            "description": "Keys laid over base (a whole capability set when there is no base)",
        },
    ]
}


class _Part(BaseModel):
    """Every object in a study file: frozen, camelCase keys, unknown keys refused."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=camel, field_title_generator=lambda name, _: camel(name)
    )


class CheckDocument(_Part):
    """How a finished workspace is scored: a command that must exit 0, files that must exist, or both."""

    command: Annotated[str, Text(described="a shell command", max_chars=10_000)] | None = None
    timeout_secs: Annotated[
        float, Number(above=0, most=MAX_CHECK_TIMEOUT_SECS, what="a number of seconds")
    ] = DEFAULT_CHECK_TIMEOUT_SECS
    produces: tuple[Annotated[str, Text(described="a path inside the workspace", max_chars=1000)], ...] = ()


class TaskDocument(_Part):
    """One task: a workspace template copied fresh for every run, its text, its check."""

    workspace: Annotated[Path, Place("folder")]
    text: Annotated[str, Text(described="the task the root agent is given", max_chars=100_000)]
    check: CheckDocument
    journals: dict[str, Annotated[Path, Place("file")]] = Field(default_factory=dict[str, Path])


class StudyDocument(_Part):
    """A whole study: configurations × tasks × repeats."""

    name: Annotated[str, Name()]
    base: Any = Field(default=None, json_schema_extra=_CONFIG_SCHEMA)
    configs: dict[str, Any] = Field(
        json_schema_extra={"minProperties": 1, "additionalProperties": _CONFIG_SCHEMA}
    )
    tasks: dict[str, TaskDocument] = Field(json_schema_extra={"minProperties": 1})
    repeats: Annotated[int, Whole(1, MAX_REPEATS)] = 1
    seed: Annotated[int, Whole(0)] = 0
    limits: Limits = Field(default_factory=Limits)
