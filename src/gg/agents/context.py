"""What every agent of one run shares (`RunContext`).

- telemetry, and a stream per agent stamped with its id;
- what the run has spent on its models, and which models refused a pinned tool choice;
- one monotonic clock, read for the run's start, its deadline (`maxRuntimeSecs`), what is left
  of its time (`left`, which bounds every wait inside the run: `gg.deadline`) and every
  duration the loop reports (`time.monotonic` in production; a test injects its own);
- the id mints: agent ids (the agent tree), program ids (each library's minter) and store ids;
- the guest leases: one arm per language, closed when the run ends (`close`), and the line for
  each arm's guests, which lets every turn in it go once the run stops;
- the agent tree (who made whom, and every agent's id), the agents as their parents see them
  (`lineages`: results, inboxes, waits), who waits on what (`waits`, which refuses a wait that
  could never end), and the scheduler bounding how many take turns at once;
- the run's board, when it has one (`board-0`, minted as the run starts), and the desk that
  dispatches its issues and serves the waits on them (`issues`, set once the run's agents can be
  started);
- the run's hooks (`hooks`), and the first hook that could not judge (`hook_failure`), which
  stops it;
- whether the run is stopping, and the fault that stopped it, when one did (`stop`): a loss of
  the run's record is such a fault, met the moment telemetry meets it; a run that holds a fault
  takes no further step (`halt_if_broken`: no model is asked and no program runs after it);
  whether it is ending (`ending`: stopping, its root ended or its time ran out), when no agent
  starts.
Everything here is safe to use from several agent threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from gg.agents.leases import GuestLeases
from gg.agents.lineages import Lineages
from gg.agents.scheduler import Scheduler
from gg.agents.tree import AgentTree
from gg.agents.waits import Waits
from gg.config.catalogue import DEFAULT_MAX_PARALLEL
from gg.deadline import MonotonicClock, is_spent, time_left
from gg.errors import FatalFault, GgDefect
from gg.ids import ROOT_ID
from gg.loop.hooks import HookRunner
from gg.loop.run import GuestLine, IssueAnswer, Ticket
from gg.loop.spend import Spend
from gg.loop.stream import AgentStream
from gg.providers.tool_choice import ToolChoiceMemory
from gg.sandbox.execution import Arm
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.registry import Registry
from gg.state.board import BoardSeat
from gg.state.library import Minter, cuid2_minter
from gg.state.storeids import StoreIds
from gg.telemetry.emitter import Telemetry

if TYPE_CHECKING:
    from gg.loop.agent import Incarnation


class IssuePort(Protocol):
    """The run's issue desk as the run and its agents reach it (`gg.agents.issues.IssueDesk`):
    `halt` ends every wait, `wait` answers a wait on issues, `spawn_child` puts a subagent to work
    on one."""

    def halt(self) -> None: ...

    def wait(
        self, issues: Sequence[str], deadline: float | None, clock: Callable[[], float]
    ) -> Sequence[IssueAnswer]: ...

    def spawn_child(self, parent: Incarnation, profile: str, issue_id: str) -> dict[str, object]: ...


@dataclass
class RunContext:
    """`started` is read off the clock when the context is made: the run starts then. It is the
    run the loop is handed (`gg.loop.run.Run`)."""

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
    lineages: Lineages = field(default_factory=Lineages)
    waits: Waits = field(default_factory=Waits)
    scheduler: Scheduler = field(default_factory=lambda: Scheduler(DEFAULT_MAX_PARALLEL))
    board: BoardSeat | None = None
    issues: IssuePort | None = None
    hooks: HookRunner | None = None
    started: float = field(init=False)
    fault: str | None = field(init=False, default=None)
    hook_failure: str | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.started = self.clock()
        self._stop_lock = threading.Lock()
        self.telemetry.on_loss(self._record_lost)

    @property
    def stopping(self) -> bool:
        return self.scheduler.stopped

    def stop(self, fault: str | None = None) -> None:
        """Stop every agent: no turn starts, every wait ends. The first fault given is the run's."""
        with self._stop_lock:
            if fault is not None and self.fault is None:
                self.fault = fault
        self.scheduler.stop()
        self.leases.stop()
        self.lineages.halt()
        if self.issues is not None:
            self.issues.halt()

    def hook_failed(self, failure: str) -> None:
        """Stop every agent; the first hook that failed is what the run ends `hook_error` over."""
        with self._stop_lock:
            if self.hook_failure is None:
                self.hook_failure = failure
        self.stop()

    @property
    def ending(self) -> bool:
        """The run is stopping, its root has ended or its time ran out: no agent starts now."""
        deadline = self.deadline
        if self.stopping or self.lineages.ended(ROOT_ID):
            return True
        return deadline is not None and self.clock() >= deadline

    def halt_if_broken(self) -> None:
        """Raise `GgDefect(RUN_BROKEN)` naming the run's fault when it holds one: the step about to
        be taken (a model asked, a program run) is not taken."""
        fault = self.fault
        if fault is not None:
            raise GgDefect(FatalFault.RUN_BROKEN, fault)

    def _record_lost(self, loss: str) -> None:
        self.stop(fault=loss)

    @property
    def deadline(self) -> float | None:
        """When the run's wall-clock budget is spent, on the run's clock; None when unbounded."""
        return None if self.max_runtime_secs is None else self.started + self.max_runtime_secs

    def left(self) -> float | None:
        """What is left of the run's time, in seconds (0 once spent); None when unbounded."""
        return time_left(self.deadline, self.clock())

    def spent(self) -> bool:
        """Whether the run's time is spent."""
        return is_spent(self.deadline, self.clock())

    def elapsed(self) -> float:
        """Seconds since the run started."""
        return self.clock() - self.started

    def stream(self, agent_id: str, parent_id: str | None = None) -> AgentStream:
        """The telemetry stream of agent `agent_id`, made by `parent_id`."""
        return AgentStream(self.telemetry.emit, agent_id, self.telemetry.run_id, parent_id)

    def take_slot(self, place: Ticket | None) -> bool:
        """Take a slot for a turn, at `place` in the scheduler's line; False once the run stopped."""
        return self.scheduler.acquire(place)

    def give_slot(self) -> None:
        self.scheduler.release()

    def leave_line(self, place: Ticket) -> None:
        self.scheduler.leave(place)

    def arm(self, language: LanguageSpec, offered: Registry | None = None) -> Arm:
        """The run's arm for `language`, leased from the run's guests."""
        return self.leases.arm(language, offered)

    def guests(self, language: LanguageSpec, owner: str | None = None) -> GuestLine:
        """The line for the guests of the run's arm for `language`, as `owner` takes them."""
        return self.leases.guests(language, owner)

    def clear_waits(self, lineage: str) -> None:
        self.waits.clear(lineage)

    def wait_for_issues(self, issues: Sequence[str]) -> Sequence[IssueAnswer]:
        """The issue desk's answer to a wait on `issues`, bounded by the run's deadline; none in a
        run without a board."""
        if self.issues is None:
            return []
        return self.issues.wait(issues, self.deadline, self.clock)

    def close(self) -> None:
        """End the run's shared resources: every arm the run built is closed, the hooks' jail too."""
        self.leases.close()
        if self.hooks is not None:
            self.hooks.close()
