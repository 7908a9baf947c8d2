"""What an arm is handed and what it hands back.

An `Arm` runs one program in its guest and returns an `Execution` value: never an exception for
anything the program did. The program reaches the host only through `HostCalls` (the membrane),
which returns a JSON value or raises `ApiError`; a `GgDefect` raised there is gg's own failure and
propagates out of `Arm.run` after the guest is stopped.

A `Failure` is typed by its `ErrorType`; the heading the model reads follows from the type's kind
(`transpile` → Compiler error, everything else → Runtime error).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Protocol, Self

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorKind, ErrorType, failure_headline
from gg.sdk.codemodule import CodeModule
from gg.wire import well_formed

MAX_LOG_LINES = 200
MAX_SDK_CALLS = 100_000  # SDK calls one program may make; later ones are refused `limit-exceeded`
MAX_LOG_BYTES = 16 * 1024
MAX_LOG_LINE_BYTES = 2 * 1024


class HostCalls(Protocol):
    """The membrane as a guest sees it: `operation` is a wire key (`files.read_file`), `args`
    the call's camelCase fields. Returns a JSON value or raises `ApiError`."""

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any: ...


@dataclass(frozen=True)
class Failure:
    """Why a program did not run to its end: its type, and the text the model reads."""

    type: ErrorType
    text: str

    @property
    def heading(self) -> str:
        return "Compiler error" if self.type.kind is ErrorKind.TRANSPILE else "Runtime error"

    @property
    def headline(self) -> str:
        return failure_headline(self.text)


@dataclass(frozen=True)
class Execution:
    """One program's run, as a value.

    `duration_ms` is guest time (ms, float); `compile_ms` is None on arms without a checker;
    `logs` holds the tail the operator record keeps, `logs_suppressed` counts the lines dropped;
    `calls_refused` counts the SDK calls refused past `MAX_SDK_CALLS` (never each recorded).
    """

    failure: Failure | None
    duration_ms: float
    logs: tuple[str, ...] = ()
    logs_suppressed: int = 0
    compile_ms: float | None = None
    calls_refused: int = 0

    @property
    def ok(self) -> bool:
        return self.failure is None

    @classmethod
    def from_guest(
        cls,
        failure: Failure | None,
        duration_ms: float,
        logs: Sequence[str],
        dropped: int,
        compile_ms: float | None = None,
        calls_refused: int = 0,
    ) -> Execution:
        """What a guest reported, made safe to hand on: every text well-formed Unicode (a lone
        surrogate a program wrote becomes U+FFFD), and the logs capped again for the record."""
        kept, suppressed = keep_log_tail([well_formed(line) for line in logs], dropped)
        safe = None if failure is None else Failure(failure.type, well_formed(failure.text))
        return cls(
            failure=safe,
            duration_ms=duration_ms,
            logs=kept,
            logs_suppressed=suppressed,
            compile_ms=compile_ms,
            calls_refused=calls_refused,
        )


class Arm(Protocol):
    """A language arm: runs one whole program per call, in a fresh guest scope."""

    language: str

    def run(
        self,
        source: str,
        host: HostCalls,
        ceilings: Ceilings,
        modules: Sequence[CodeModule] = (),
        *,
        owner: str | None = None,
    ) -> Execution:
        """Run `source` to its end; `owner` (one agent incarnation) lets the arm serve that
        owner's programs from a warm engine scope, never shared with another owner."""
        ...

    def home(self, owner: str) -> Hashable | None:
        """The guest process holding `owner`'s warm scope, while one does (None: none, or an
        arm that keeps none): the run seats `owner`'s next turn on it when it can."""
        ...

    def idle(self) -> Set[Hashable]:
        """The guest processes idle now, named as `home` names them."""
        ...

    def close(self) -> None: ...


class ClosesOnExit:
    """`with arm:` closes the arm on the way out; the arm supplies `close`."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def keep_log_tail(lines: Sequence[str], already_dropped: int = 0) -> tuple[tuple[str, ...], int]:
    """Cap a program's log lines for the operator record, keeping the tail.

    At most `MAX_LOG_LINES` lines and `MAX_LOG_BYTES` bytes in all; each line is cut to
    `MAX_LOG_LINE_BYTES` (UTF-8, never inside a character). Returns the kept lines and the number
    of lines dropped (including `already_dropped`, lines the guest dropped before sending).
    """
    kept: list[str] = []
    total = 0
    for line in reversed(lines[-MAX_LOG_LINES:]):
        cut = _cut_utf8(line, MAX_LOG_LINE_BYTES)
        size = len(cut.encode("utf-8", "replace"))
        if total + size > MAX_LOG_BYTES:
            break
        kept.append(cut)
        total += size
    kept.reverse()
    return tuple(kept), already_dropped + len(lines) - len(kept)


def _cut_utf8(text: str, limit: int) -> str:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore") + "…"
