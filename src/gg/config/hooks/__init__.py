"""Hooks as the capability set declares them: the events, the declarations and their launch
checks, what an answer means, and gg's built-in scripts. Running them is `gg.loop.hooks`'."""

from gg.config.hooks.answers import CONTINUE, AnswerRefused, HookAnswer, answer_of, read_answer
from gg.config.hooks.built_ins import built_in_answer
from gg.config.hooks.declaration import (
    DEFAULT_HOOK_TIMEOUT_SECS,
    MAX_HOOK_TIMEOUT_SECS,
    HookDeclaration,
    declared_hooks,
    hooks_findings,
)
from gg.config.hooks.events import (
    BLOCKING_EVENTS,
    SESSION_EVENTS,
    BuiltInHook,
    HookAction,
    HookEvent,
    HookKind,
    may_block,
    may_insert,
)

__all__ = [
    "BLOCKING_EVENTS",
    "CONTINUE",
    "DEFAULT_HOOK_TIMEOUT_SECS",
    "MAX_HOOK_TIMEOUT_SECS",
    "SESSION_EVENTS",
    "AnswerRefused",
    "BuiltInHook",
    "HookAction",
    "HookAnswer",
    "HookDeclaration",
    "HookEvent",
    "HookKind",
    "answer_of",
    "built_in_answer",
    "declared_hooks",
    "hooks_findings",
    "may_block",
    "may_insert",
    "read_answer",
]
