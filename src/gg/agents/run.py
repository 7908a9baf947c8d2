"""A run: one capability set, its tree of agents, its telemetry, from first turn to exit code.

The run is the one place that builds the world from the loaded capability set (the run's context
with its clock, its scheduler and its guest leases, every profile's setup, the model clients, the
root agent), and the one place that turns anything gg did not expect into the run's own end
(`internal_error`, exit 1) rather than a traceback. Every journal it replays is opened at launch
(a bad line refuses the run), and a line naming an agent the run never opened is warned of
before its end is written. The run ends when the root's last incarnation
ends; its ending is the run's (a machine's terminal state's ending included), and every agent
still running then is stopped and recorded as stopped. gg's own defect in any agent ends the run
`internal_error`, and so does a record that cannot be written (a full disk): telemetry tells the
run at once, no agent takes a further step, and the end is written wherever the record still
holds, never as `completed`; a record that cannot be written at the run's first event refuses
the launch (exit 2). A model that cannot be reached ends the run `model_error` (exit 1); a ceiling
ends it with exit 3. The operator's Ctrl-C (`KeyboardInterrupt`), or a SIGTERM while `gg run`
holds it (`gg.agents.interruption`), at any moment from `run_started` on (the root's arm still
booting included), stops every agent and ends the run `interrupted` (exit 130, or 143 for SIGTERM),
naming which: its `run_finished` is written, counting every turn an agent began
(the one the interruption cut short included, as `gg show` lists them), and then the interruption
is raised on to the caller. A run whose process vanished (`kill -9`) writes no end at all: the
store reads it as `unfinished`. `run_finished` sums every agent's turns, programs, errors and
spend, and lists each agent's own (`gg.agents.run_events`). The host families the profiles name
are bound before any agent opens (`gg.sdk.host.binding`) and serve every agent whose profile
lists them: one that cannot be served refuses the run (exit 2), naming it. Only the launch
refuses a run (the families, the profiles' setups, the root's model and arm); once the root
runs, nothing any agent meets is a refusal.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from gg.agents.context import RunContext
from gg.agents.families import bind_run_families, config_folder, log_run_families
from gg.agents.hooks import ended_by_hook, open_hooks, session_end, session_start
from gg.agents.interruption import OutsideStop, held_stop, message_of, signal_of, stops_raised
from gg.agents.issues import IssueDesk
from gg.agents.leases import GuestLeases
from gg.agents.models import ClientFor, ModelClients, Overrides, replayed_journals
from gg.agents.profiles import Profiles
from gg.agents.run_events import record_end, run_started
from gg.agents.scheduler import Scheduler
from gg.agents.spawner import Spawner
from gg.config.kinds import ModuleKind
from gg.config.model import CapabilitySet
from gg.config.modules import board_caps
from gg.deadline import MonotonicClock
from gg.errors import ConfigError
from gg.ids import ROOT_ID
from gg.loop.agent import AgentEnd, Incarnation
from gg.loop.hooks import PythonHook
from gg.loop.status import RunStatus
from gg.loop.stream import AgentStream
from gg.providers.base import ModelClient
from gg.providers.recording import JournalRecorder
from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry
from gg.sdk.host.binding import HostBinding
from gg.sdk.host.family import HostFamily
from gg.state.board import Board, BoardSeat
from gg.state.library import Minter, cuid2_minter
from gg.state.storeids import StoreIds
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import LogLevel


@dataclass(frozen=True)
class RunOptions:
    """What the command line may override in a capability set."""

    config_path: Path = Path("gg.json")
    workspace: Path | None = None
    provider: str | None = None
    model: str | None = None
    journal: Path | None = None
    session_id: str | None = None  # keys the provider's prompt cache; the run id
    recorder: JournalRecorder | None = None  # records every agent's model calls (`--record`)
    recorded_first: bool = False  # host functions answer from the replayed recording (a playback)

    @property
    def overrides(self) -> Overrides:
        return Overrides(self.provider, self.model, self.journal, self.session_id, self.recorder)


@dataclass(frozen=True)
class World:
    """What a run may be handed instead of building it itself (tests, embedding gg).

    An `arm` handed in serves its own language and is not closed by the run; its owner closes it.
    It serves gg's own SDK: a run that serves host families builds its arms from its own registry.
    `clock` is the run's one monotonic clock: its deadline, its ceilings and its durations.
    `client` answers the root (every incarnation of it); `clients` answers every agent, given the
    agent's id and profile. `families` are the host families profiles may name by name; `hooks`
    the Python hooks (`gg.hook`) that fire beside the declared ones.
    """

    client: ModelClient | None = None
    arm: Arm | None = None
    minter: Minter = cuid2_minter
    clock: MonotonicClock = time.monotonic
    clients: ClientFor | None = None
    families: tuple[HostFamily, ...] = ()
    hooks: tuple[PythonHook, ...] = ()


@dataclass(frozen=True)
class RunEnding:
    run_id: str
    status: RunStatus
    final_text: str | None
    message: str | None

    @property
    def exit_code(self) -> int:
        return self.status.exit_code


def execute_run(
    capability_set: CapabilitySet,
    telemetry: Telemetry,
    options: RunOptions = RunOptions(),
    world: World = World(),
) -> RunEnding:
    """Run the capability set's agents to the root's end. Never raises for anything gg meets; the
    operator's Ctrl-C is recorded as the run's end (`interrupted`) and raised on."""
    given = (world.client, world.clients)
    replayed = replayed_journals(capability_set, options.overrides, given)
    base = config_folder(options.config_path)
    host, refusal = bind_run_families(
        capability_set, telemetry, world.families, options.recorder, replayed, base, options.recorded_first
    )
    capability_set = host.capability_set or capability_set
    run = _context(capability_set, telemetry, world, host)
    stream = run.stream(ROOT_ID)
    workspace = (options.workspace or capability_set.workspace).resolve()
    clients = ModelClients(capability_set, options.overrides, run.tool_choice, given, run.left)
    spawner: Spawner | None = None
    stop: KeyboardInterrupt | None = None
    try:
        stream.emit(run_started(capability_set, options.config_path, workspace, clients))
        log_run_families(stream, host)
        if refusal is not None or run.fault is not None:  # a record that cannot be made refuses it
            end = AgentEnd(RunStatus.REFUSED, message=run.fault or str(refusal))
        else:
            end, spawner, stop = _run_tree(capability_set, run, stream, workspace, clients, world)
    except KeyboardInterrupt as interruption:  # from `run_started` on, before the root opened
        end, stop = AgentEnd(RunStatus.INTERRUPTED, message=message_of(interruption)), interruption
    finally:
        closing = _close(run, host)
    if stop is None and closing is not None:  # the stop came as the run closed: it is the run's end
        end, stop = AgentEnd(RunStatus.INTERRUPTED, message=message_of(closing)), closing
    end = record_end(stream, run, end, spawner, clients, None if stop is None else signal_of(stop))
    if stop is not None and end.status is RunStatus.INTERRUPTED:
        raise stop
    return RunEnding(telemetry.run_id, end.status, end.final_text, end.message)


def _close(run: RunContext, host: HostBinding) -> KeyboardInterrupt | None:
    """Close the run's guests and host families; a stop landing there is returned, once each is
    closed (a guest a stop kept from closing dies with gg: `gg.sandbox.sentinel`'s rule)."""
    stop: KeyboardInterrupt | None = None
    for close in (run.close, host.close):
        try:
            close()
        except KeyboardInterrupt as interruption:
            stop = stop or interruption
    return stop


def _context(
    capability_set: CapabilitySet, telemetry: Telemetry, world: World, host: HostBinding
) -> RunContext:
    registry = default_registry(host.operations, host.types, host.briefs)
    ids = StoreIds()
    caps = board_caps([profile.capabilities for profile in capability_set.agents])
    return RunContext(
        telemetry=telemetry,
        registry=registry,
        leases=GuestLeases(
            registry, None if host.operations else world.arm, parallel=capability_set.limits.parallel
        ),
        clock=world.clock,
        max_runtime_secs=capability_set.limits.max_runtime_secs,
        program_ids=world.minter,
        scheduler=Scheduler(capability_set.limits.parallel),
        store_ids=ids,
        board=None if caps is None else BoardSeat(Board(caps), ids.mint(ModuleKind.BOARD.value)),
    )


def _run_tree(
    capability_set: CapabilitySet,
    run: RunContext,
    stream: AgentStream,
    workspace: Path,
    clients: ModelClients,
    world: World,
) -> tuple[AgentEnd, Spawner | None, KeyboardInterrupt | None]:
    """The run's end, its spawner once the root opened, and the interruption that stopped it;
    the session's hooks fire around the root's lineage. An interruption while the root opens
    (its arm booting) ends the run as one at any later moment: every agent opened is recorded."""
    opened: list[Spawner] = []
    try:
        root = _open_root(capability_set, run, stream, workspace, clients, world.hooks, opened)
    except (ConfigError, LookupError) as refusal:  # a provider without its key; an arm not built
        return AgentEnd(RunStatus.REFUSED, message=str(refusal)), None, None
    except KeyboardInterrupt as interruption:
        spawner = opened[0] if opened else None
        if spawner is not None:
            spawner.stop_all()
        return AgentEnd(RunStatus.INTERRUPTED, message=message_of(interruption)), spawner, interruption
    except Exception as defect:  # gg's own failure: recorded for the operator, never the model
        return _defect(stream, defect), None, None
    spawner = opened[0]
    end, stop = _run_root(root, spawner, run, stream, held_stop())
    stream.turn = root.stream.turn
    end = ended_by_hook(end, run.hook_failure)
    try:
        with stops_raised():  # a stop cuts the hook short, even one after the stop that ended the run
            session_end(run.hooks, stream, root.setup.slug, end)
    except KeyboardInterrupt as interruption:  # every turn still counts; the first stop names the end
        stop = stop or interruption
        return AgentEnd(RunStatus.INTERRUPTED, message=message_of(stop)), spawner, stop
    return end, spawner, stop


def _run_root(
    root: Incarnation, spawner: Spawner, run: RunContext, stream: AgentStream, outside: OutsideStop | None
) -> tuple[AgentEnd, KeyboardInterrupt | None]:
    """The root lineage's end and the interruption that stopped it: a Ctrl-C on this thread, or a
    stop handed over from another (`outside`, held by the thread that started the run), which
    stops every agent at once."""
    if outside is not None:
        outside.bind(spawner.stop_all)
    stop: KeyboardInterrupt | None = None
    end = AgentEnd(RunStatus.INTERRUPTED)
    try:
        end = session_start(root, run) or spawner.run_lineage(root)
    except KeyboardInterrupt as interruption:
        stop = interruption
    except Exception as defect:
        if outside is None or outside.given is None:
            end = _defect(stream, defect)
    finally:
        spawner.stop_all()
    stop = stop or (None if outside is None else outside.given)
    if stop is not None:  # what a stop ended (the program it cut short) is never the run's end
        return AgentEnd(RunStatus.INTERRUPTED, message=message_of(stop)), stop
    return end, None


def _open_root(
    capability_set: CapabilitySet,
    run: RunContext,
    stream: AgentStream,
    workspace: Path,
    clients: ModelClients,
    hooks: tuple[PythonHook, ...],
    opened: list[Spawner],
) -> Incarnation:
    """Open the run's journals, hooks and root agent (its arm built); the spawner is put in
    `opened` as soon as it exists, so an interruption still finds every agent it opened."""
    clients.open_journals()
    run.hooks = open_hooks(capability_set, hooks, run.clock)
    spawner = Spawner(run, Profiles(capability_set, run.registry, workspace, stream, run.board), clients)
    opened.append(spawner)
    if run.board is not None:
        run.issues = IssueDesk(spawner, run.board.board)
    root = spawner.open_root()
    run.leases.arm(root.setup.language, root.setup.registry)
    return root


def _defect(stream: AgentStream, defect: Exception) -> AgentEnd:
    stream.log(LogLevel.ERROR, f"gg failed: {defect!r}", traceback=traceback.format_exc())
    return AgentEnd(RunStatus.INTERNAL_ERROR, message=f"gg failed: {defect}")
