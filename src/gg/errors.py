"""The errors gg raises, and who owns each.

- `OperationError(operation, code, message)`: a failed operation, the one error a program can
  see (as the SDK's `ApiError`). Codes are data (`ErrorCode`, kebab-case on the wire), never
  subclasses; a host function raises it as `gg.ApiError(code, message)` (`gg.sdk.host.error`).
- `GgDefect(fault, message)`: gg itself broke. The turn is Fatal, the model reads nothing, no
  ceiling is charged, and the run ends `internal_error` (seed 001, "gg's own defects").
- `ConfigError(defects)`: a capability set refused before the first turn, carrying every
  `ConfigDefect(path, found, reason)` at once.
- `HookFailed(event, hook, reason)`: a hook that could not judge (it failed, timed out or gave
  no answer). The model reads nothing of it and the run ends `hook_error`.

Exceptions here mean "stop this call"; they never log or emit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from gg.wire import escaped


class ErrorCode(StrEnum):
    """Why an operation failed, as a program reads it (`e.code`)."""

    INVALID_ARGUMENT = "invalid-argument"
    NOT_FOUND = "not-found"
    CONFLICT = "conflict"
    REFUSED = "refused"
    UNAVAILABLE = "unavailable"
    LIMIT_EXCEEDED = "limit-exceeded"
    IO_ERROR = "io-error"
    OTHER = "other"


class OperationError(Exception):
    """A failed SDK call. `operation` is gg's key without its family (`read_file`)."""

    def __init__(self, operation: str, code: ErrorCode, message: str) -> None:
        super().__init__(f"{operation}: {code.value}: {message}")
        self.operation = operation
        self.code = code
        self.message = message

    def to_wire(self) -> dict[str, str]:
        return {"operation": self.operation, "code": self.code.value, "message": self.message}


class FatalFault(StrEnum):
    """Which part of gg failed when a turn is Fatal."""

    ARTIFACT_DEFECT = "artifact_defect"
    HOST_FAULT = "host_fault"
    LOWERING = "lowering"
    TOOLCHAIN = "toolchain"
    RUN_BROKEN = "run_broken"


class GgDefect(Exception):
    """gg's own failure: never charged to the model."""

    def __init__(self, fault: FatalFault, message: str) -> None:
        super().__init__(f"{fault.value}: {message}")
        self.fault = fault
        self.message = message


class HookFailed(Exception):
    """A hook judged nothing: `reason` says what it did instead."""

    def __init__(self, event: str, hook: str, reason: str) -> None:
        super().__init__(f"the {event} hook `{hook}` {reason}")
        self.event = event
        self.hook = hook
        self.reason = reason


MAX_FOUND_CHARS = 80


def shown_found(value: object) -> str:
    """A found value as a defect shows it: as JSON (a string in quotes, so an empty one is `""`),
    cut to `MAX_FOUND_CHARS` with an ellipsis."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_FOUND_CHARS else text[: MAX_FOUND_CHARS - 1] + "…"


@dataclass(frozen=True)
class ConfigDefect:
    """One bad value in a capability set: where it is, what was found, what was wanted. Rendered,
    the path and the found value show each control or bidi character as its escape (`\\u202e`),
    so a refusal never prints what it refuses raw."""

    path: str
    found: str
    reason: str

    def render(self) -> str:
        return f"{escaped(self.path)}: {self.reason} (found {escaped(self.found)})"


class ConfigError(Exception):
    """A refused launch. Carries every defect found, never only the first; its message names the
    source escaped, as each defect's path and found value are."""

    def __init__(self, source: str, defects: Sequence[ConfigDefect]) -> None:
        self.source = source
        self.defects = tuple(defects)
        lines = "\n".join(f"  - {d.render()}" for d in self.defects)
        count = len(self.defects)
        super().__init__(f"{escaped(source)}: {count} defect{'s' if count != 1 else ''}\n{lines}")
