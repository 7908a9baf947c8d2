"""How a program stopped at one of its ceilings reads, on every arm: which ceiling, and for the
memory ceiling where the program was when the engine can tell (`Where`: the innermost frame of
the program's own code).

Rules kept here:
- a program stopped at its time ceiling is `sandbox_timeout`, one that ran out of memory
  `sandbox_out_of_memory`, each in one wording for every arm; a program (or its type check)
  stopped once the run's time was spent says the run's time stopped it, not its own limit;
- the place is the file, line and source line of the frame the engine was running; the source
  line is cut to `MAX_SOURCE_CHARS`. Only a refused allocation comes with a stack: Monty's
  memory limit, and an allocation V8 refused (a `RangeError` the program did not catch). Monty's
  time limit raises a `TimeoutError` with no frames, and a Deno guest stopped at a ceiling is a
  killed or aborted process, which V8 ends without one; those name no place.
"""

from __future__ import annotations

from dataclasses import dataclass

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.prompts import render
from gg.sandbox.execution import Failure

MAX_SOURCE_CHARS = 80


@dataclass(frozen=True)
class Where:
    """A place in the program's own code: `program.py`, line 12, `total += row[2]`."""

    file: str
    line: int
    source: str = ""

    def values(self) -> dict[str, object]:
        source = self.source.strip()
        if len(source) > MAX_SOURCE_CHARS:
            source = source[:MAX_SOURCE_CHARS] + "…"
        return {"file": self.file, "line": self.line, "source": source}


_NOWHERE: dict[str, object] = {"file": "", "line": 0, "source": ""}


def timeout_failure(ceilings: Ceilings) -> Failure:
    if ceilings.run_spent():
        return Failure(ErrorType.SANDBOX_TIMEOUT, render("ceiling-run-time"))
    text = render("ceiling-timeout", seconds=f"{ceilings.timeout_secs:g}")
    return Failure(ErrorType.SANDBOX_TIMEOUT, text)


def check_stopped(ceilings: Ceilings, own: Failure) -> Failure:
    """A type check stopped at its time limit: `own`, its failure at its own limit, unless the run's
    time is what stopped it."""
    return timeout_failure(ceilings) if ceilings.run_spent() else own


def memory_failure(ceilings: Ceilings, where: Where | None = None) -> Failure:
    place = where.values() if where else _NOWHERE
    text = render("ceiling-memory", bytes=ceilings.max_memory_bytes, **place)
    return Failure(ErrorType.SANDBOX_OUT_OF_MEMORY, text)
