"""The TypeScript arm: the JavaScript arm's twin, with a type check before each program runs.

Rules kept here:
- the reply is checked as `program.ts` against the `gg.d.ts` generated from the SDK its agent is
  offered (`declared`; by default the registry the guest's SDK comes from)
  (`gg.sandbox.deno.tscheck`), by a checker started on first use;
- a rejected program runs nothing: its failure is `transpile_syntax` or `transpile_compile` with
  the checker's diagnostics (`gg.sandbox.deno.tsdiag`), its `duration_ms` is 0;
- a checked program runs in the same guest, pool and SDK as JavaScript, with its types stripped
  in place, so run-time frames are located in `program.ts` coordinates; its code modules may be
  `.ts` or `.js`;
- `compile_ms` (float, ms) is the check's wall time, on the rejected path too; it is outside the
  program's time ceiling, and within what is left of the run's time;
- a checker that cannot finish raises `GgDefect(FatalFault.TOOLCHAIN)` out of `run`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from gg.config.ceilings import Ceilings
from gg.deadline import within
from gg.outcome import ErrorType
from gg.prompts import render
from gg.sandbox.arms.javascript import execution_of
from gg.sandbox.ceilings import check_stopped
from gg.sandbox.deno.bundle import build_bundle
from gg.sandbox.deno.declarations import declarations
from gg.sandbox.deno.pool import DenoPool, SourceLanguage
from gg.sandbox.deno.tscheck import CHECK_SECS, CheckOverran, TypeChecker
from gg.sandbox.deno.tsdiag import compile_failure
from gg.sandbox.deno.workers import WORKERS, Workers
from gg.sandbox.execution import ClosesOnExit, Execution, Failure, HostCalls
from gg.sandbox.job import Job
from gg.sdk.codemodule import CodeModule
from gg.sdk.registry import Registry

CHECK_GRACE_SECS = 5.0  # a check may take the program's time ceiling plus this before it is refused


class TypeScriptArm(ClosesOnExit):
    """Checks, then runs, TypeScript programs against the SDK generated from `registry`."""

    language = "typescript"

    def __init__(
        self,
        registry: Registry,
        *,
        workers: Workers = WORKERS,
        check_secs: float = CHECK_SECS,
        check_grace_secs: float = CHECK_GRACE_SECS,
        declared: Registry | None = None,
    ) -> None:
        self._check_grace_secs = check_grace_secs
        bundle = build_bundle(registry)
        self._words = bundle.words
        self._pool = DenoPool(bundle, workers=workers)
        self._checker = TypeChecker(declarations(declared or registry), check_secs=check_secs)

    @property
    def pool(self) -> DenoPool:
        return self._pool

    @property
    def checker(self) -> TypeChecker:
        return self._checker

    def run(
        self,
        source: str,
        host: HostCalls,
        ceilings: Ceilings,
        modules: Sequence[CodeModule] = (),
        *,
        owner: str | None = None,
    ) -> Execution:
        started = time.perf_counter()
        try:
            limit = within(ceilings.timeout_secs + self._check_grace_secs, ceilings.run_left())
            errors = self._checker.check(source, limit)
        except CheckOverran as overran:
            compile_ms = (time.perf_counter() - started) * 1000
            text = render("check-overran", secs=f"{overran.limit_secs:g}")
            failure = check_stopped(ceilings, Failure(ErrorType.TRANSPILE_COMPILE, text))
            return Execution(failure, duration_ms=0.0, compile_ms=compile_ms)
        compile_ms = (time.perf_counter() - started) * 1000
        if errors:
            failure = compile_failure(errors, source, self._words, self._checker.scrubbed)
            return Execution(failure=failure, duration_ms=0.0, compile_ms=compile_ms)
        job = Job.of(source, modules, ceilings, owner)
        return execution_of(self._pool.run(job, host, SourceLanguage.TS), job, ceilings, compile_ms)

    def home(self, owner: str) -> int | None:
        return self._pool.home(owner)

    def idle(self) -> frozenset[int]:
        return self._pool.idle()

    def close(self) -> None:
        self._checker.close()
        self._pool.close()
