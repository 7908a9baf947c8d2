"""The JavaScript arm: the reply's bytes run unchanged as the ES module `program.js` in Deno.

Rules kept here:
- nothing reads or prepares the program on the host: no checker, so `compile_ms` is None;
- each program runs in a fresh Worker of a long-lived Deno process leased to it for the run
  (`gg.sandbox.lease`): programs of other agents run beside it on processes of their own; the
  first process starts on the first run, and `close()` kills them all (the arm is also a context
  manager);
- the time ceiling is wall clock from the program's start, fractions honoured; the memory
  ceiling holds the whole guest process (`gg.sandbox.deno.memory`);
- a ceiling or a lost engine is a `sandbox_*` failure in gg's words; everything the program did
  is the engine's own rendering (`gg.sandbox.deno.failure`);
- the guest's log tail is capped again with `keep_log_tail`; every text handed back is
  well-formed Unicode (a lone surrogate a program wrote becomes U+FFFD).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.prompts import render
from gg.sandbox.ceilings import memory_failure, timeout_failure
from gg.sandbox.deno.bundle import build_bundle
from gg.sandbox.deno.failure import program_failure
from gg.sandbox.deno.pool import DenoPool, SourceLanguage
from gg.sandbox.deno.workers import WORKERS, Workers
from gg.sandbox.execution import MAX_SDK_CALLS, ClosesOnExit, Execution, Failure, HostCalls
from gg.sandbox.job import GuestReport, GuestStatus, Job
from gg.sdk.codemodule import CodeModule
from gg.sdk.registry import Registry


class JavaScriptArm(ClosesOnExit):
    """Runs JavaScript programs against the SDK generated from `registry`."""

    language = "javascript"

    def __init__(
        self,
        registry: Registry,
        *,
        workers: Workers = WORKERS,
        call_cap: int = MAX_SDK_CALLS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        bundle = build_bundle(registry, call_cap)
        self._pool = DenoPool(bundle, workers=workers, clock=clock)

    @property
    def pool(self) -> DenoPool:
        return self._pool

    def run(
        self,
        source: str,
        host: HostCalls,
        ceilings: Ceilings,
        modules: Sequence[CodeModule] = (),
        *,
        owner: str | None = None,
    ) -> Execution:
        job = Job.of(source, modules, ceilings, owner)
        return execution_of(self._pool.run(job, host, SourceLanguage.JS), job, ceilings)

    def home(self, owner: str) -> int | None:
        return self._pool.home(owner)

    def idle(self) -> frozenset[int]:
        return self._pool.idle()

    def close(self) -> None:
        self._pool.close()


def execution_of(
    report: GuestReport, job: Job, ceilings: Ceilings, compile_ms: float | None = None
) -> Execution:
    """The `Execution` a run report of `job` stands for."""
    failure = failure_of(report, ceilings, sources_of(job))
    return Execution.from_guest(
        failure, report.duration_ms, report.logs, report.dropped, compile_ms, report.refused_calls
    )


def sources_of(job: Job) -> dict[str, str]:
    """The texts a job's frames may name: the program (as `program.js` or `program.ts`) and each
    code module (`lib:<key>`)."""
    sources = {f"lib:{module.key}": module.source for module in job.modules}
    return {**sources, "program.js": job.program, "program.ts": job.program}


def failure_of(report: GuestReport, ceilings: Ceilings, sources: Mapping[str, str]) -> Failure | None:
    """The failure a run report stands for, or None when the program ran to its end."""
    match report.status:
        case GuestStatus.OK:
            return None
        case GuestStatus.THREW:
            return program_failure(report.failure or {}, ceilings, sources)
        case GuestStatus.TIMEOUT:
            return timeout_failure(ceilings)  # the process is killed: V8 gives no stack
        case GuestStatus.OOM:
            return memory_failure(ceilings)
        case GuestStatus.TRAP | GuestStatus.COMPILE | GuestStatus.CHECK_TIMEOUT:
            # the Deno guest checks nothing, so a checker's status from it is a trap as well
            return Failure(ErrorType.SANDBOX_TRAP, render("sandbox-trap"))
