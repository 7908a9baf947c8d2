"""A fresh engine session with gg's SDK booted into it, for exactly one program.

Rules kept here:
- a session is checked out with the run's limits: the memory ceiling (`max_memory`), a recursion
  depth, the feed time (the time ceiling itself: the engine stops a program that spends its time
  computing, and the worker lives on; gg's wall clock, a moment later, stops one that spends it
  in host calls, where the engine's clock pauses) and the suspension count (the host-call cap
  plus `SUSPENSION_MARGIN`);
- the prelude is fed once, as an expression that runs it in a namespace of its own: it hands back
  the `gg` and `lib` objects and binds nothing in the program's namespace;
- a booted session serves one program and is then given back (`close`); nothing of it is reused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic_monty import ExternalModule, Monty, MontyComplete, ResourceLimits

SUSPENSION_MARGIN = 10_000
RECURSION_DEPTH = 1000
SCRIPT_NAME = "program.py"


@dataclass
class Booted:
    """A checked-out session, booted, waiting for its one program."""

    ceilings: tuple[float, int]  # (time ceiling in seconds, memory ceiling in bytes) it was made for
    context: Any  # the checkout, entered
    session: Any
    objects: dict[str, Any]  # `gg` and `lib`, as the program's imports are answered

    def close(self) -> None:
        self.context.__exit__(None, None, None)


def boot_source(prelude: str) -> str:
    """The boot feed: run `prelude` in a namespace of its own, hand back `(gg, lib)`."""
    return f"(lambda ns: (exec({prelude!r}, ns), (ns['_gg'], ns['_lib']))[1])({{}})"


def run_limits(timeout_secs: float, memory_bytes: int, host_call_cap: int) -> ResourceLimits:
    return {
        "max_memory": memory_bytes,
        "max_feed_duration_secs": timeout_secs,
        "max_suspensions": host_call_cap + SUSPENSION_MARGIN,
        "max_recursion_depth": RECURSION_DEPTH,
    }


def boot(
    pool: Monty, source: str, host: ExternalModule, host_call_cap: int, ceilings: tuple[float, int]
) -> Booted:
    """A new session for a program of `ceilings`, with the SDK booted. Raises the engine's errors
    (a boot that fails is gg's defect)."""
    timeout_secs, memory_bytes = ceilings
    limits = run_limits(timeout_secs, memory_bytes, host_call_cap)
    context = pool.checkout(script_name=SCRIPT_NAME, limits=limits, external_modules={"gg": host})
    session = context.__enter__()
    try:
        snap = session.feed_start(source, print_callback=lambda stream, text: None)
        while not isinstance(snap, MontyComplete):
            snap = snap.resume_auto()  # the one suspension is the prelude's own `import gg`
        gg, lib = snap.output
    except BaseException:
        context.__exit__(None, None, None)
        raise
    return Booted(ceilings, context, session, {"gg": gg, "lib": lib})
