"""The `shell` family: a command run in the agent's jail, capability `shell`.

Rules:
- `shell(command, {timeoutSecs?})` runs `/bin/sh -c <command>` in the workspace, in a fresh
  jail, and returns `{exitCode, output, truncated, droppedBytes, droppedLines}`: `output` is
  stdout and stderr merged in order, its last 16 KiB made readable and starting at the start of a
  line (`gg.sdk.command.output`); a non-zero exit is a result, never a failure;
- the timeout is the call's `timeoutSecs`, else the capability's (120 s unless the profile says
  otherwise); it is at most a day and never runs past what is left of the run's wall-clock budget;
- a command its timeout stopped is `limit-exceeded`, with the last 4 KiB of its output in the
  message, from the start of a line, saying how many lines came before; one the jail could not
  start is `io-error`; a blank command, one holding NUL or a lone surrogate, or one of 128 KiB or
  more is `invalid-argument`;
- a command fires `pre-shell` (which may refuse it, before it runs) and, once it ended,
  `post-shell` (`ok`: it exited 0);
- the time a command takes is off the program's clock (`waits_externally`): a build may run longer
  than the program's own timeout.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from gg.config.hooks import HookEvent
from gg.deadline import time_left, within
from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.prompts import render
from gg.sdk.command import CommandEnd, Exited, JailFailure, Output, TimedOut
from gg.sdk.hooks import fire
from gg.sdk.registry import Capability, ErrorDoc, Operation, Param, ParamType

if TYPE_CHECKING:
    from gg.sdk.scope import ProgramScope

CAPABILITY = "shell"
MAX_TIMEOUT_SECS = 86_400.0
MAX_COMMAND_BYTES = 128 * 1024 - 1  # the longest single argument the kernel passes to a program
MESSAGE_OUTPUT_BYTES = 4 * 1024


class CommandJail(Protocol):
    """Where an agent's commands run (`gg.sandbox.jail.Jail`): `run` hands back how the command
    ended, or raises `JailFailure` when it could not be started."""

    def run(self, command: str, timeout_secs: float) -> CommandEnd: ...


Confined = TypeVar("Confined", bound=CommandJail, covariant=True)


@dataclass(frozen=True)
class ShellAccess(Generic[Confined]):
    """An agent's shell: the jail its commands run in, and the timeout of a call that names none."""

    jail: Confined
    timeout_secs: float


def command_timeout(requested: float | None, default: float, deadline: float | None, now: float) -> float:
    """The seconds a command may run: the call's timeout or the default, at most a day, and at
    most what is left before `deadline` (the run's budget, on the clock `now` reads)."""
    wanted = min(default if requested is None else requested, MAX_TIMEOUT_SECS)
    return within(wanted, time_left(deadline, now))


def _shell(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    access = scope.shell
    if access is None:  # the gate admits only agents whose profile enables the shell
        raise GgDefect(FatalFault.HOST_FAULT, "shell.shell reached an agent without a jail")
    command = _checked(args["command"])
    fire(scope.hooks, "shell", HookEvent.PRE_SHELL, {"command": command})
    timeout = command_timeout(args.get("timeoutSecs"), access.timeout_secs, scope.deadline, scope.clock())
    try:
        end = access.jail.run(command, timeout)
    except JailFailure as failure:
        fire(scope.hooks, "shell", HookEvent.POST_SHELL, {"command": command, "ok": False})
        raise OperationError("shell", ErrorCode.IO_ERROR, _not_started(failure.reason)) from None
    ran = isinstance(end, Exited) and end.exit_code == 0
    fire(scope.hooks, "shell", HookEvent.POST_SHELL, {"command": command, "ok": ran})
    match end:
        case Exited(exit_code=code, output=output):
            return _result(code, output)
        case TimedOut(timeout_secs=seconds, output=output):
            raise OperationError("shell", ErrorCode.LIMIT_EXCEEDED, _stopped(seconds, output))


def _checked(command: str) -> str:
    if not command.strip():
        raise OperationError("shell", ErrorCode.INVALID_ARGUMENT, "`command` is blank")
    if "\0" in command:
        raise OperationError("shell", ErrorCode.INVALID_ARGUMENT, "`command` holds a NUL character")
    try:
        size = len(command.encode())
    except UnicodeEncodeError:
        raise OperationError(
            "shell", ErrorCode.INVALID_ARGUMENT, "`command` is not well-formed Unicode"
        ) from None
    if size > MAX_COMMAND_BYTES:
        raise OperationError(
            "shell",
            ErrorCode.INVALID_ARGUMENT,
            f"`command` is {size} bytes, over the {MAX_COMMAND_BYTES}-byte cap",
        )
    return command


def _result(exit_code: int, output: Output) -> dict[str, Any]:
    return {
        "exitCode": exit_code,
        "output": output.text,
        "truncated": output.truncated,
        "droppedBytes": output.dropped_bytes,
        "droppedLines": output.dropped_lines,
    }


def _stopped(seconds: float, output: Output) -> str:
    said = output.last(MESSAGE_OUTPUT_BYTES)
    shown = len(said.text.encode())
    lead = render("shell-stopped", seconds=f"{seconds:.3g}", bytes=shown, lines=said.dropped_lines)
    return f"{lead}\n{said.text}" if said.text else lead


def _not_started(reason: str) -> str:
    return render("shell-not-started", reason=reason)


SHELL_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="shell",
        key="shell",
        params=(
            Param("command", ParamType.STRING, doc="run with `/bin/sh -c` in your workspace"),
            Param(
                "timeout_secs",
                ParamType.POSITIVE_NUMBER,
                required=False,
                doc="seconds before the command is stopped (by default 120, or as configured)",
            ),
        ),
        returns="ShellOutput",
        summary="Run a shell command in your workspace, in a jail; returns its exit code and output.",
        gate=Capability(CAPABILITY),
        handler=_shell,
        waits_externally=True,
        errors=(
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the command is blank, holds NUL or is 128 KiB or more"),
            ErrorDoc(
                ErrorCode.LIMIT_EXCEEDED, "the command ran past its timeout; the message ends with its output"
            ),
            ErrorDoc(ErrorCode.IO_ERROR, "the jail could not start the command"),
        ),
    ),
)
