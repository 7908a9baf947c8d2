"""A program's ceilings: what the `responses-as-code` params (`timeoutSecs`, `maxMemoryBytes`)
resolve to, handed to every arm that runs one of the agent's programs.

- A program is stopped at the earlier of its own `timeout_secs` and the run's deadline
  (`run_left`, what is left of the run's time: `gg.deadline`); the run's time is spent once
  nothing of it is left.
- `run_left` is read, never compared: two ceilings of the same time and memory are equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gg.deadline import RunLeft, unbounded

__all__ = ["Ceilings"]


@dataclass(frozen=True)
class Ceilings:
    """Per-program execution ceilings: its own time and memory (the `responses-as-code` params),
    and what is left of the run's time (`run_left`): a program is stopped at the earlier of its own
    `timeout_secs` and the run's deadline."""

    timeout_secs: float
    max_memory_bytes: int
    run_left: RunLeft = field(default=unbounded, compare=False)

    def run_spent(self) -> bool:
        """Whether the run's time is spent, read now."""
        return self.run_left() == 0
