"""A hook as declared: `{"event", "name"?, "command" | "builtIn", "timeoutSecs"?}`.

Rules (every defect of every declaration is found at once, beside the rest of the set's):
- `event` is one of the ten events; the capability set's `hooks` hold only the session events,
  a profile's `hooks` only the other eight;
- a declaration names exactly one of `command` (a path to an executable file, relative paths
  starting at the config file's folder) and `builtIn` (one of gg's scripts);
- a built-in that blocks is declared only on the one event it judges (a blocking action on an
  event that cannot block refuses the launch);
- `timeoutSecs` bounds a command: above 0, at most `MAX_HOOK_TIMEOUT_SECS`
  (`DEFAULT_HOOK_TIMEOUT_SECS` unless written);
- `name` labels the hook wherever gg reports it; unwritten, the label is the command's file
  name or the built-in's id.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import field_validator

from gg.config.defects import ABSENT, Finding, Loc, mapping, sequence
from gg.config.hooks.events import (
    BUILT_IN_EVENT,
    SESSION_EVENTS,
    BuiltInHook,
    HookEvent,
    HookKind,
    may_block,
)
from gg.config.part import Part
from gg.config.values import Choice, Name, Number, Place, refuse

__all__ = [
    "DEFAULT_HOOK_TIMEOUT_SECS",
    "MAX_HOOK_TIMEOUT_SECS",
    "HookDeclaration",
    "declared_hooks",
    "hooks_findings",
]

DEFAULT_HOOK_TIMEOUT_SECS = 30.0
MAX_HOOK_TIMEOUT_SECS = 3600.0


class HookDeclaration(Part):
    """One hook: the event it fires on, its label, and what it runs."""

    event: Annotated[HookEvent, Choice(HookEvent)]
    name: Annotated[str, Name(described="the label gg reports the hook under")] | None = None
    command: Annotated[Path, Place("file")] | None = None
    built_in: Annotated[BuiltInHook, Choice(BuiltInHook)] | None = None
    timeout_secs: Annotated[
        float, Number(above=0, most=MAX_HOOK_TIMEOUT_SECS, what="a number of seconds")
    ] = DEFAULT_HOOK_TIMEOUT_SECS

    @field_validator("command")
    @classmethod
    def _executable(cls, command: Path | None) -> Path | None:
        if command is not None and not os.access(command, os.X_OK):
            raise refuse(f"must be an executable file; {command} may not be executed")
        return command

    @property
    def kind(self) -> HookKind:
        return HookKind.COMMAND if self.command is not None else HookKind.BUILT_IN

    @property
    def label(self) -> str:
        if self.name is not None:
            return self.name
        return self.command.name if self.command is not None else str(self.built_in)


def hooks_findings(hooks: object, loc: Loc, *, session: bool) -> Iterator[Finding]:
    """Every placement and kind defect of the hook list at `loc`: the capability set's
    (`session`) or a profile's."""
    listed = sequence(hooks)
    for index, entry in enumerate(listed or ()):
        declared = mapping(entry)
        if declared is not None:
            yield from _declaration(declared, (*loc, index), session=session)


def _declaration(declared: Any, loc: Loc, *, session: bool) -> Iterator[Finding]:
    event = _event(declared.get("event"))
    if event is not None and (event in SESSION_EVENTS) != session:
        yield Finding((*loc, "event"), _misplaced(event, session=session))
    kinds = [key for key in ("command", "builtIn") if declared.get(key) is not None]
    if len(kinds) != 1:
        found = {key: declared[key] for key in kinds}
        yield Finding(loc, "must name exactly one of command and builtIn", found=found or ABSENT)
    built_in = _built_in(declared.get("builtIn"))
    if event is not None and built_in is not None:
        yield from _built_in_event(built_in, event, (*loc, "builtIn"))


def _misplaced(event: HookEvent, *, session: bool) -> str:
    if session:
        return f"fires for one agent; declare {event} in that profile's hooks, not the capability set's"
    events = " and ".join(sorted(SESSION_EVENTS))
    return f"fires once per run; declare {event} in the capability set's hooks (only {events} go there)"


def _built_in_event(built_in: BuiltInHook, event: HookEvent, loc: Loc) -> Iterator[Finding]:
    judged = BUILT_IN_EVENT[built_in]
    if judged is None or judged is event:
        return
    if not may_block(event):
        reason = f"blocks, and {event} cannot be blocked (only {_blocking()} can); {built_in} judges {judged}"
    else:
        reason = f"judges only {judged}; declare it on that event"
    yield Finding(loc, reason)


def _blocking() -> str:
    return ", ".join(event.value for event in HookEvent if may_block(event))


def _event(value: object) -> HookEvent | None:
    return HookEvent(value) if isinstance(value, str) and value in set(HookEvent) else None


def _built_in(value: object) -> BuiltInHook | None:
    return BuiltInHook(value) if isinstance(value, str) and value in set(BuiltInHook) else None


def declared_hooks(entries: Sequence[HookDeclaration], event: HookEvent) -> tuple[HookDeclaration, ...]:
    """The declarations of `event`, in declaration order."""
    return tuple(entry for entry in entries if entry.event is event)
