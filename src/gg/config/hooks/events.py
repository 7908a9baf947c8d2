"""The ten hook events, what each may answer, and the three built-in scripts (wire names, once).

Rules:
- `session-start` and `session-end` fire once per run, around the root's session, and are
  declared on the capability set (`hooks`); the other eight fire for one agent and are declared
  on its profile (`agents[i].hooks`);
- only `pre-write`, `pre-shell` and `agent-stop` may block the operation they precede;
- a hook answers `continue`, `block` or `message`; a message reaches the model's next prompt
  once, except on `session-end`, after which no prompt is read;
- `trace` may run on any event; `refuse-empty-write` blocks, and runs only on `pre-write`;
  `guard-destructive-shell` blocks, and runs only on `pre-shell`.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "BLOCKING_EVENTS",
    "BUILT_IN_EVENT",
    "HOOK_FAILED",
    "SESSION_EVENTS",
    "BuiltInHook",
    "HookAction",
    "HookEvent",
    "HookKind",
    "may_block",
    "may_insert",
]


class HookEvent(StrEnum):
    SESSION_START = "session-start"
    SESSION_END = "session-end"
    AGENT_START = "agent-start"
    AGENT_STOP = "agent-stop"
    PRE_WRITE = "pre-write"
    POST_WRITE = "post-write"
    PRE_SHELL = "pre-shell"
    POST_SHELL = "post-shell"
    PRE_COMPACT = "pre-compact"
    POST_COMPACT = "post-compact"


class HookAction(StrEnum):
    """What a hook answers (`{"action": ...}`)."""

    CONTINUE = "continue"
    BLOCK = "block"
    MESSAGE = "message"


class HookKind(StrEnum):
    """What a declaration runs: an executable in a jail, or one of gg's own scripts."""

    COMMAND = "command"
    BUILT_IN = "built-in"


class BuiltInHook(StrEnum):
    TRACE = "trace"
    REFUSE_EMPTY_WRITE = "refuse-empty-write"
    GUARD_DESTRUCTIVE_SHELL = "guard-destructive-shell"


HOOK_FAILED = "failed"
"""`hook_run.action` of a hook that judged nothing (it failed, timed out or gave no answer)."""

SESSION_EVENTS = frozenset({HookEvent.SESSION_START, HookEvent.SESSION_END})
BLOCKING_EVENTS = frozenset({HookEvent.PRE_WRITE, HookEvent.PRE_SHELL, HookEvent.AGENT_STOP})
BUILT_IN_EVENT: dict[BuiltInHook, HookEvent | None] = {
    BuiltInHook.TRACE: None,
    BuiltInHook.REFUSE_EMPTY_WRITE: HookEvent.PRE_WRITE,
    BuiltInHook.GUARD_DESTRUCTIVE_SHELL: HookEvent.PRE_SHELL,
}
"""The one event a blocking built-in judges; None: any event."""


def may_block(event: HookEvent) -> bool:
    return event in BLOCKING_EVENTS


def may_insert(event: HookEvent) -> bool:
    """Whether a message answered on `event` has a prompt to reach."""
    return event is not HookEvent.SESSION_END
