"""One program's run in an engine, as an arm and its pool exchange it: the job the pool is handed,
how the run ended and the report it hands back; and the guest's reply to one host call, which
both guests' protocols share.

Rules kept here:
- a job holds the program, the code modules loaded for it, its two ceilings and what is left of
  the run's time (read live: the run's deadline stops it too); how an engine reads the program
  (TypeScript stripped, Python type-checked first) is the engine's own option;
- a job's `owner` names who runs it (one agent incarnation): an engine may serve an owner's
  programs one after another from one warm engine scope, and never shares one between owners;
  `None` (the default) asks for a fresh scope of its own;
- a report's `status` is one `GuestStatus`; `failure` is the guest's own description of what the
  program threw, `detail` the engine's last words when it was lost, `diagnostics` the checker's
  rejection, `compile_ms` the check's time where the guest checks, and `crowded` says the guest
  holds Workers that outlived their programs; `refused_calls` counts the SDK calls the guest
  refused past the call cap;
- a host call's reply carries the value, or the `ApiError` it raised as a failed reply; anything
  else the host raises propagates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from gg.config.ceilings import Ceilings
from gg.deadline import RunLeft, unbounded
from gg.errors import OperationError
from gg.sdk.codemodule import CodeModule


class GuestStatus(StrEnum):
    """How one program's run ended, as the pool saw it."""

    OK = "ok"
    THREW = "threw"
    COMPILE = "compile"
    CHECK_TIMEOUT = "check_timeout"
    TIMEOUT = "timeout"
    OOM = "oom"
    TRAP = "trap"


@dataclass(frozen=True)
class Job:
    """One program to run: its source, the code modules loaded for it, and its ceilings."""

    program: str
    modules: tuple[CodeModule, ...]
    timeout_secs: float
    memory_bytes: int
    run_left: RunLeft = field(default=unbounded, compare=False)
    owner: str | None = None

    @classmethod
    def of(
        cls, program: str, modules: Sequence[CodeModule], ceilings: Ceilings, owner: str | None = None
    ) -> Job:
        """The job of `program` under `ceilings`, run for `owner`."""
        return cls(
            program,
            tuple(modules),
            ceilings.timeout_secs,
            ceilings.max_memory_bytes,
            ceilings.run_left,
            owner,
        )


@dataclass(frozen=True)
class GuestReport:
    """What came back: how the run ended, the guest's failure description, the log tail and the
    timing (ms)."""

    status: GuestStatus
    duration_ms: float
    failure: Mapping[str, Any] | None = None
    logs: tuple[str, ...] = ()
    dropped: int = 0
    detail: str = ""
    diagnostics: str = ""
    compile_ms: float | None = None
    crowded: bool = False
    refused_calls: int = 0


def reply(run_id: int, answer: Callable[[], Any]) -> dict[str, Any]:
    """The guest's reply to one host call of run `run_id`, whose value `answer()` gives."""
    try:
        value = answer()
    except OperationError as error:
        return {"t": "reply", "id": run_id, "ok": False, "error": error.to_wire()}
    return {"t": "reply", "id": run_id, "ok": True, "value": value}


def report_of(message: Mapping[str, Any], compile_ms: float | None = None) -> GuestReport:
    """The report a guest's `done` message carries."""
    compiled = message.get("compileMs")
    return GuestReport(
        status=GuestStatus(message["status"]),
        duration_ms=float(message.get("ms", 0.0)),
        failure=message.get("failure"),
        logs=tuple(str(line) for line in message.get("logs", ())),
        dropped=int(message.get("dropped", 0)),
        detail=str(message.get("detail", "")),
        diagnostics=str(message.get("diagnostics", "")),
        compile_ms=float(compiled) if compiled is not None else compile_ms,
        crowded=bool(message.get("crowded", False)),
        refused_calls=int(message.get("refusedCalls") or 0),
    )
