"""What every agent of one run shares (`RunContext`).

- telemetry, and a stream per agent stamped with its id;
- what the run has spent on its models, and which models refused a pinned tool choice;
- one monotonic clock, read for the run's start, its deadline (`maxRuntimeSecs`) and every
  duration the loop reports (`time.monotonic` in production; a test injects its own);
- the id mints: agent ids (the agent tree), program ids (each library's minter) and store ids;
- the guest leases: one arm per language, closed when the run ends (`close`);
- the agent tree: who spawned whom.
Everything here is safe to use from several agent threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gg.providers.tool_choice import ToolChoiceMemory
from gg.run.leases import GuestLeases
from gg.run.spend import Spend
from gg.run.stream import AgentStream
from gg.run.tree import AgentTree
from gg.sdk.registry import Registry
from gg.state.library import Minter, cuid2_minter
from gg.state.storeids import StoreIds
from gg.telemetry.emitter import Telemetry

MonotonicClock = Callable[[], float]
"""Seconds on a clock that never goes back; only differences between two readings mean anything."""


@dataclass
class RunContext:
    """`started` is read off the clock when the context is made: the run starts then."""

    telemetry: Telemetry
    registry: Registry
    leases: GuestLeases
    clock: MonotonicClock = time.monotonic
    max_runtime_secs: float | None = None
    program_ids: Minter = cuid2_minter
    spend: Spend = field(default_factory=Spend)
    tool_choice: ToolChoiceMemory = field(default_factory=ToolChoiceMemory)
    store_ids: StoreIds = field(default_factory=StoreIds)
    tree: AgentTree = field(default_factory=AgentTree)
    started: float = field(init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    @property
    def deadline(self) -> float | None:
        """When the run's wall-clock budget is spent, on the run's clock; None when unbounded."""
        return None if self.max_runtime_secs is None else self.started + self.max_runtime_secs

    def elapsed(self) -> float:
        """Seconds since the run started."""
        return self.clock() - self.started

    def stream(self, agent_id: str) -> AgentStream:
        """The telemetry stream of agent `agent_id`."""
        return AgentStream(self.telemetry.emit, agent_id, self.telemetry.run_id)

    def close(self) -> None:
        """End the run's shared resources: every arm the run built is closed."""
        self.leases.close()
