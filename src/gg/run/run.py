"""A run: one capability set, its root agent, its telemetry, from first turn to exit code.

The run is the one place that builds the world from the loaded capability set (the run's context
with its clock and guest leases, the root's model client, setup and holdings), and the one place
that turns anything gg did not expect into the run's own end (`internal_error`, exit 1) rather
than a traceback. A model that cannot be reached ends the run `model_error` (exit 1); a ceiling
ends it with exit 3. The host families the profiles name are bound before the run starts
(`gg.sdk.host.binding`): one that cannot be served refuses the run (exit 2), naming it.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from gg.config.catalogue import Provider
from gg.config.model import Agent as AgentProfile
from gg.config.model import CapabilitySet, ModelBinding
from gg.errors import ConfigError
from gg.loop.agent import AgentEnd, run_agent
from gg.providers.base import ModelClient
from gg.providers.factory import build_client, endpoint_of
from gg.providers.recording import JournalRecorder
from gg.providers.tool_choice import ToolChoiceMemory
from gg.run.build import build_agent
from gg.run.context import MonotonicClock, RunContext
from gg.run.families import bind_run_families, log_run_families
from gg.run.leases import GuestLeases
from gg.run.setup import resolve_setup
from gg.run.shell import open_shell
from gg.run.status import RunStatus
from gg.run.stream import AgentStream
from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry
from gg.sdk.host.binding import HostBinding
from gg.sdk.host.family import HostFamily
from gg.state.library import Minter, cuid2_minter
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import LogLevel, RunFinished, RunStarted


@dataclass(frozen=True)
class RunOptions:
    """What the command line may override in a capability set."""

    config_path: Path = Path("gg.json")
    workspace: Path | None = None
    provider: str | None = None
    model: str | None = None
    journal: Path | None = None
    session_id: str | None = None  # keys the provider's prompt cache; the run id
    recorder: JournalRecorder | None = None  # records the root's model calls (`--record`)


@dataclass(frozen=True)
class World:
    """What a run may be handed instead of building it itself (tests, embedding gg).

    An `arm` handed in serves its own language and is not closed by the run; its owner closes it.
    It serves gg's own SDK: a run that serves host families builds its arms from its own registry.
    `clock` is the run's one monotonic clock: its deadline, its ceilings and its durations.
    `families` are the host families profiles may name by name.
    """

    client: ModelClient | None = None
    arm: Arm | None = None
    minter: Minter = cuid2_minter
    clock: MonotonicClock = time.monotonic
    families: tuple[HostFamily, ...] = ()


@dataclass(frozen=True)
class RunResult:
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
) -> RunResult:
    """Run the capability set's root agent to its end. Never raises for anything gg meets."""
    replayed = None if world.client is not None else _replayed(capability_set.root.model, options)
    host, refusal = bind_run_families(capability_set, telemetry, world.families, options.recorder, replayed)
    capability_set = host.capability_set or capability_set
    run = _context(capability_set, telemetry, world, host)
    root = run.tree.open_root(capability_set.root.slug)
    stream = run.stream(root.id)
    workspace = (options.workspace or capability_set.workspace).resolve()
    stream.emit(_started(capability_set, options, workspace))
    log_run_families(stream, host)
    try:
        if refusal is not None:
            end = AgentEnd(RunStatus.REFUSED, message=str(refusal))
        else:
            end = _run_root(capability_set, options, world, run, stream, workspace)
    finally:
        run.close()
        host.close()
    stream.emit(
        RunFinished(
            status=end.status.value,
            exit_code=end.status.exit_code,
            turns=stream.turn,
            duration_ms=round(run.elapsed() * 1000, 1),
            final_text=end.final_text,
            message=end.message,
            summary=end.summary,
        )
    )
    return RunResult(telemetry.run_id, end.status, end.final_text, end.message)


def _context(
    capability_set: CapabilitySet, telemetry: Telemetry, world: World, host: HostBinding
) -> RunContext:
    registry = default_registry(host.operations, host.types, host.briefs)
    return RunContext(
        telemetry=telemetry,
        registry=registry,
        leases=GuestLeases(registry, None if host.operations else world.arm),
        clock=world.clock,
        max_runtime_secs=capability_set.limits.max_runtime_secs,
        program_ids=world.minter,
    )


def _run_root(
    capability_set: CapabilitySet,
    options: RunOptions,
    world: World,
    run: RunContext,
    stream: AgentStream,
    workspace: Path,
) -> AgentEnd:
    profile = capability_set.root
    try:
        client = world.client or _client(profile, options, stream, run.tool_choice)
        shell = open_shell(profile, workspace, stream)
        setup = resolve_setup(profile, capability_set.limits, run.registry, workspace, shell)
        agent = build_agent(setup, run, client, stream)
    except (ConfigError, LookupError) as refusal:  # a provider without its key; an arm not built
        return AgentEnd(RunStatus.REFUSED, message=str(refusal))
    except Exception as defect:
        return _defect(stream, defect)
    try:  # once the agent runs, nothing it meets is a refusal of the launch
        end = run_agent(agent, run)
    except Exception as defect:
        return _defect(stream, defect)
    return dataclasses.replace(end, summary=agent.summary(run.spend))


def _defect(stream: AgentStream, defect: Exception) -> AgentEnd:
    """gg's own failure (or a model object's it was handed): recorded for the operator, never the model."""
    stream.log(LogLevel.ERROR, f"gg failed: {defect!r}", traceback=traceback.format_exc())
    return AgentEnd(RunStatus.INTERNAL_ERROR, message=f"gg failed: {defect}")


def _client(
    profile: AgentProfile, options: RunOptions, stream: AgentStream, tool_choice: ToolChoiceMemory
) -> ModelClient:
    """The root's client. A `--model` of the profile's own provider keeps the profile's endpoint,
    key variable and journal; one of another provider keeps none of them. The launch log names
    the endpoint a hosted model is asked at, and where that came from."""
    binding = profile.model
    provider = options.provider or binding.provider.value
    kept = provider == binding.provider.value
    client = build_client(
        provider=provider,
        model=options.model if options.provider is not None else binding.model,
        tool_choice_memory=tool_choice,
        log=lambda level, message, fields: stream.log(LogLevel(level), message, **fields),
        base_url=binding.base_url if kept else None,
        api_key_env=binding.api_key_env if kept else None,
        max_output_tokens=binding.max_output_tokens,
        temperature=binding.temperature,
        cache_lifetime=None if binding.cache_lifetime is None else binding.cache_lifetime.value,
        session_id=options.session_id or stream.run_id,
        journal_path=_journal(binding, options),
    )
    endpoint = endpoint_of(provider, binding.base_url if kept else None)
    if endpoint is not None:
        stream.log_info(
            f"{client.model_id} is asked at {endpoint.shown} ({endpoint.source})",
            baseUrl=endpoint.shown,
            endpointFrom=endpoint.source,
        )
    return client if options.recorder is None else options.recorder.wrap(client)


def _journal(binding: ModelBinding, options: RunOptions) -> Path | None:
    """The journal a profile's model replays: `--journal`, else the profile's own while its
    provider is kept."""
    kept = (options.provider or binding.provider.value) == binding.provider.value
    return options.journal or (binding.journal if kept else None)


def _replayed(binding: ModelBinding, options: RunOptions) -> Path | None:
    """The journal the root's replies are replayed from, when they are."""
    replays = (options.provider or binding.provider.value) == Provider.REPLAY
    return _journal(binding, options) if replays else None


def _started(capability_set: CapabilitySet, options: RunOptions, workspace: Path) -> RunStarted:
    binding = capability_set.root.model
    provider = options.provider or binding.provider.value
    model = options.model if options.provider else binding.model
    return RunStarted(
        name=capability_set.name,
        config_path=str(options.config_path),
        workspace=str(workspace),
        model=provider if model is None else f"{provider}:{model}",
        language=capability_set.root.language.value,
        limits=capability_set.limits.model_dump(by_alias=True, exclude_none=True),
    )
