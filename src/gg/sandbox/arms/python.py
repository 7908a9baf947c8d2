"""The Python arm: the reply's bytes run unchanged as `program.py` in Monty, inside a worker
process of gg's own (`gg.sandbox.monty.pool`); its checked twin type-checks the program first.

Rules kept here:
- `python` has no checker (`compile_ms` is None); `python-typed` checks every program against the
  stubs of the SDK its agent is offered (`declared`; by default the registry it serves) with the
  engine's bundled `ty` before anything runs, records `compile_ms`, and a
  rejected program is a `Compiler error` (`transpile_compile`) that ran nothing;
- each program runs in a fresh engine session of a long-lived worker leased to it for the run
  (`gg.sandbox.lease`): programs of other agents run beside it on workers of their own; the first
  worker starts on the first run, and `close()` kills them all (the arm is also a context
  manager);
- the time ceiling is wall clock from the program's start, the memory ceiling the engine's heap
  limit; a ceiling or a lost engine is a `sandbox_*` failure in gg's words, everything the program
  did is read by `gg.sandbox.monty.failure`;
- the worker's log tail is capped again with `keep_log_tail`; every text handed back is
  well-formed Unicode.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from gg.config.ceilings import Ceilings
from gg.sandbox.execution import MAX_SDK_CALLS, ClosesOnExit, Execution, HostCalls
from gg.sandbox.job import Job
from gg.sandbox.monty.bundle import build_bundle, module_names
from gg.sandbox.monty.failure import failure_of
from gg.sandbox.monty.pool import MontyPool
from gg.sdk.codemodule import CodeModule
from gg.sdk.registry import Registry

PYTHON = "python"
PYTHON_TYPED = "python-typed"


class PythonArm(ClosesOnExit):
    """Runs Python programs against the SDK generated from `registry`; `checked` makes it the
    type-checked twin."""

    def __init__(
        self,
        registry: Registry,
        *,
        checked: bool = False,
        call_cap: int = MAX_SDK_CALLS,
        clock: Callable[[], float] = time.monotonic,
        declared: Registry | None = None,
    ) -> None:
        self.language = PYTHON_TYPED if checked else PYTHON
        self._checked = checked
        external = [op.wire for op in registry if op.waits_externally]
        bundle = build_bundle(registry, self.language, call_cap, declared)
        self._pool = MontyPool(bundle, external, clock=clock)
        self._declared = module_names(registry)

    @property
    def pool(self) -> MontyPool:
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
        report = self._pool.run(job, host, checked=self._checked)
        failure = failure_of(report, ceilings, self._declared, [module.key for module in modules])
        compile_ms = (report.compile_ms or 0.0) if self._checked else None
        return Execution.from_guest(
            failure, report.duration_ms, report.logs, report.dropped, compile_ms, report.refused_calls
        )

    def home(self, owner: str) -> None:
        """None: a Python program's scope is never kept warm past its run."""
        return None

    def idle(self) -> frozenset[int]:
        return frozenset()

    def close(self) -> None:
        self._pool.close()
