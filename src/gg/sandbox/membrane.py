"""The membrane: every SDK call a program makes crosses it, in four steps.

1. gate: the call must be bound for this agent (`Always`, its capability, or its ending role) and
   not withheld by its profile's ablation (`Registry.held_back`: refused `unavailable` by name);
   the role gate runs before any argument is looked at; once the run's wall-clock budget is
   spent, a call that would reach a tool is refused `limit-exceeded` (endings never are); once
   the run holds a fault (its record lost, another agent's defect), no call is served at all:
   the scope's `halt` raises `GgDefect(RUN_BROKEN)`, which stops the program there (the call
   that met the fault, as its `api_call` was written, included);
2. validate: the arguments must match the operation's declared parameters (a guest SDK already
   checked them, but the host never trusts the guest); a host function's parameter is judged
   against its shape, at any depth (`gg.sdk.shape_check`);
3. dispatch: the operation's handler acts on the program's scope; one that waits on work
   outside gg (`waits_externally`: a subagent, a shell command, a host function) acts inside
   the membrane's `aside` (the run's: the turn holds none of its arm's guests meanwhile);
4. record: every call is bracketed `api_call` / `api_result` through the `CallLog`, refused ones
   included, and counted (`api_calls` every call, `tool_calls` those that reached a tool).

Past `MAX_SDK_CALLS` calls (the cap each guest keeps too, so these never come from a guest that
keeps it) a call is refused `limit-exceeded` before any step, counted in `refused` and not
recorded, so the record cannot grow with them.

A failure is an `ApiError` raised back into the guest; a `GgDefect` passes through untouched.

The membrane also takes the lines the program logs as it runs (`logged`, the guest streams them)
and passes the first `LIVE_LOG_LINES` of them on, as they come.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, Protocol

from gg.deadline import is_spent
from gg.errors import ErrorCode, OperationError
from gg.prompts import render
from gg.sandbox.execution import MAX_SDK_CALLS
from gg.sdk.registry import (
    U32_MAX,
    WHOLE_RANGES,
    Capability,
    Ending,
    Machine,
    Operation,
    Param,
    ParamType,
    Registry,
    is_bound,
    written,
)
from gg.sdk.scope import ProgramScope
from gg.sdk.shape_check import violation

MAX_ARGUMENT_PREVIEW = 40
LIVE_LOG_LINES = 200  # lines of one program passed on live; its record keeps its last lines anyway


Aside = Callable[[], AbstractContextManager[object]]
"""What a call that waits on outside work is made inside (`Scheduler.stepped_aside`)."""


class CallLog(Protocol):
    """Where the membrane reports each call, and the lines the program logs as it runs (the loop
    turns these into telemetry)."""

    def call_started(self, operation: str, ordinal: int) -> None: ...

    def call_ended(self, operation: str, ordinal: int, failure: OperationError | None) -> None: ...

    def program_logged(self, lines: Sequence[str], dropped: int) -> None: ...


@dataclass
class CallCounts:
    api_calls: int = 0
    tool_calls: int = 0
    refused: int = 0


class Membrane:
    """The `HostCalls` a guest is handed for one program."""

    def __init__(
        self,
        registry: Registry,
        scope: ProgramScope,
        log: CallLog,
        language: str,
        clock: Callable[[], float] = time.monotonic,
        aside: Aside | None = None,
    ) -> None:
        self._clock = clock
        self._aside = aside
        self._registry = registry
        self._scope = scope
        self._log = log
        self._language = language
        self._live_lines = LIVE_LOG_LINES
        self._unshown = 0
        self.counts = CallCounts()

    def logged(self, lines: Sequence[str], dropped: int) -> None:
        """Lines the program logged while it runs, passed on to the `CallLog` until the program's
        live budget (`LIVE_LOG_LINES`) is spent; the lines not passed on are counted and said
        before the next ones passed on."""
        shown = list(lines[: max(self._live_lines, 0)])
        self._unshown += dropped
        if not shown:
            self._unshown += len(lines)
            return
        self._live_lines -= len(shown)
        self._log.program_logged(shown, self._unshown)
        self._unshown = len(lines) - len(shown)

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any:
        op = self._registry.get(operation)
        if self.counts.api_calls >= MAX_SDK_CALLS:
            self.counts.refused += 1
            key = op.key if op is not None else operation.rsplit(".", 1)[-1][:MAX_ARGUMENT_PREVIEW]
            raise OperationError(
                key, ErrorCode.LIMIT_EXCEEDED, render("sdk-call-cap", cap=f"{MAX_SDK_CALLS:,}")
            )
        ordinal = self.counts.api_calls
        self.counts.api_calls += 1
        self._log.call_started(operation, ordinal)
        self._scope.halt()
        try:
            if op is None:
                raise self._not_offered(operation)
            self._gate(op)
            self._refuse_past_the_deadline(op)
            values = validate_arguments(op, args, self._language)
            if op.dispatches_tool:
                self.counts.tool_calls += 1
            with self._aside_for(op):
                result = op.handler(self._scope, values)
        except OperationError as failure:
            self._log.call_ended(operation, ordinal, failure)
            raise
        self._log.call_ended(operation, ordinal, None)
        return result

    def _aside_for(self, op: Operation) -> AbstractContextManager[object]:
        return self._aside() if op.waits_externally and self._aside is not None else nullcontext()

    def _gate(self, op: Operation) -> None:
        scope = self._scope
        if is_bound(op.gate, scope.role, scope.capabilities):
            return
        if isinstance(op.gate, Ending):
            raise OperationError(op.key, ErrorCode.UNAVAILABLE, self._not_an_ending_of_this_role(op))
        name = op.qualified(self._language)
        if isinstance(op.gate, Machine):
            raise OperationError(op.key, ErrorCode.UNAVAILABLE, render("gate-machine", operation=name))
        capability = op.gate.id if isinstance(op.gate, Capability) else "?"
        unavailable = render("gate-capability", operation=name, capability=capability)
        raise OperationError(op.key, ErrorCode.UNAVAILABLE, unavailable)

    def _not_offered(self, operation: str) -> OperationError:
        held = self._registry.held_back(operation)
        if held is None:
            return _unknown_operation(operation)
        withheld = render("gate-withheld", operation=held.qualified(self._language))
        return OperationError(held.key, ErrorCode.UNAVAILABLE, withheld)

    def _refuse_past_the_deadline(self, op: Operation) -> None:
        """Once the run's wall-clock budget is spent, no call is dispatched to a tool; views,
        docs, the library and the endings are still served, so a program can always end."""
        deadline = self._scope.deadline
        if op.dispatches_tool and is_spent(deadline, self._clock()):
            raise OperationError(op.key, ErrorCode.LIMIT_EXCEEDED, render("run-time-spent"))

    def _not_an_ending_of_this_role(self, op: Operation) -> str:
        own = [
            other.qualified(self._language)
            for other in self._registry
            if isinstance(other.gate, Ending) and other.gate.role is self._scope.role
        ]
        return render("gate-ending", operation=op.qualified(self._language), endings=own)


def validate_arguments(
    op: Operation, args: Mapping[str, Any], language: str = "javascript"
) -> dict[str, Any]:
    """Check `args` (camelCase wire fields) against the declared parameters; returns them as given.

    Raises `ApiError(invalid-argument)` naming the operation and the argument as `language` spells
    them, what it must be and what it was.
    """
    if not isinstance(args, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise OperationError(op.key, ErrorCode.INVALID_ARGUMENT, render("call-not-an-object"))
    declared = {param.wire: param for param in op.params}
    unknown = sorted(set(args) - set(declared))
    if unknown:
        argument = written(str(unknown[0])[:MAX_ARGUMENT_PREVIEW], language)
        takes_none = render("call-unknown-argument", operation=op.qualified(language), argument=argument)
        raise OperationError(op.key, ErrorCode.INVALID_ARGUMENT, takes_none)
    for param in op.params:
        name = param.spelled(language)
        if param.wire in args:
            _check_value(op, param, name, args[param.wire])
        elif param.required:
            raise OperationError(
                op.key, ErrorCode.INVALID_ARGUMENT, render("argument-required", argument=name)
            )
    return dict(args)


def _check_value(op: Operation, param: Param, name: str, value: Any) -> None:
    if param.shape is not None:
        wrong = violation(param.shape, value)
        if wrong is not None:
            raise OperationError(op.key, ErrorCode.INVALID_ARGUMENT, f"`{name}{wrong.where}` {wrong.reason}")
        return
    wanted = _violation(param.type, value)
    if wanted is not None:
        raise OperationError(
            op.key, ErrorCode.INVALID_ARGUMENT, f"`{name}` must be {wanted}, got {_preview(value)}"
        )


def _violation(kind: ParamType, value: Any) -> str | None:
    """What `value` should have been, or None when it is acceptable."""
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    match kind:
        case ParamType.STRING:
            return None if isinstance(value, str) else "a string"
        case ParamType.CLEARABLE_STRING:
            return None if value is None or isinstance(value, str) else "a string, or null to clear it"
        case ParamType.DOC_TARGET:
            return None if isinstance(value, str) else "a documentation name"
        case ParamType.U32 | ParamType.COUNT:
            least, most = WHOLE_RANGES[kind]
            whole = is_number and float(value).is_integer() and least <= value <= most
            return None if whole else f"a whole number from {least} to {most}"
        case ParamType.POSITIVE_NUMBER:
            return None if is_number and 0 < value < float("inf") else "a number above zero"
        case ParamType.STRING_LIST:
            ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
            return None if ok else "a list of strings"
        case ParamType.TURN_SPANS:
            return None if _is_span_list(value) else "a list of { from, to } turn spans"
        case ParamType.ANY:
            return None


def _is_span_list(value: Any) -> bool:
    def whole(bound: Any) -> bool:
        number = isinstance(bound, int | float) and not isinstance(bound, bool)
        return number and float(bound).is_integer() and 0 <= bound <= U32_MAX

    if not isinstance(value, list):
        return False
    return all(
        isinstance(span, dict) and set(span) == {"from", "to"} and whole(span["from"]) and whole(span["to"])
        for span in value
    )


def _preview(value: Any) -> str:
    text = repr(value)
    if len(text) > MAX_ARGUMENT_PREVIEW:
        text = text[:MAX_ARGUMENT_PREVIEW] + "…"
    return f"{type(value).__name__} {text}"


def _unknown_operation(operation: str) -> OperationError:
    key = operation.rsplit(".", 1)[-1][:MAX_ARGUMENT_PREVIEW]
    return OperationError(
        key, ErrorCode.UNAVAILABLE, render("call-unknown-operation", operation=operation[:80])
    )
