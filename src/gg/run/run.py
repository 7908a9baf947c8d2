"""A run: one capability set, its root agent, its telemetry, from first turn to exit code.

The run is the one place that builds the world (provider client, guest, workspace, window) from
the loaded capability set, and the one place that turns anything gg did not expect into the run's
own end (`internal_error`, exit 1) rather than a traceback. A model that cannot be reached ends the
run `model_error` (exit 1); a ceiling ends it with exit 3.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from gg import prompts
from gg.config.model import Agent as AgentProfile
from gg.config.model import CapabilitySet
from gg.errors import ConfigError
from gg.loop.agent import Agent, AgentEnd, AgentSetup, run_agent
from gg.loop.limits import Limits
from gg.loop.system import system_prompt
from gg.providers.base import Message, ModelClient, submit_program_tool
from gg.providers.factory import build_client
from gg.providers.tool_choice import ToolChoiceMemory
from gg.run.status import RunStatus
from gg.run.stream import AgentStream
from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm
from gg.sandbox.languages import LANGUAGES
from gg.sdk.catalogue import default_registry
from gg.sdk.registry import Registry
from gg.state.views import ViewSet
from gg.state.window import Window
from gg.state.workspace import Workspace
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import LogLevel, RunFinished, RunStarted

ROOT_ID = "root"


@dataclass(frozen=True)
class RunOptions:
    """What the command line may override in a capability set."""

    config_path: Path = Path("gg.json")
    workspace: Path | None = None
    provider: str | None = None
    model: str | None = None
    journal: Path | None = None


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
    capability_set: CapabilitySet, telemetry: Telemetry, options: RunOptions = RunOptions()
) -> RunResult:
    """Run the capability set's root agent to its end. Never raises for anything gg meets."""
    started = time.monotonic()
    stream = AgentStream(telemetry.emit, ROOT_ID)
    workspace = (options.workspace or capability_set.workspace).resolve()
    stream.emit(_started(capability_set, options, workspace))
    end = _run_root(capability_set, options, stream, workspace, started)
    stream.emit(
        RunFinished(
            status=end.status.value,
            exit_code=end.status.exit_code,
            turns=stream.turn,
            duration_ms=round((time.monotonic() - started) * 1000, 1),
            final_text=end.final_text,
            message=end.message,
        )
    )
    return RunResult(telemetry.run_id, end.status, end.final_text, end.message)


def _run_root(
    capability_set: CapabilitySet, options: RunOptions, stream: AgentStream, workspace: Path, started: float
) -> AgentEnd:
    profile = capability_set.root
    registry = default_registry()
    arm: Arm | None = None
    try:
        client = _client(profile, options, stream)
        arm = build_arm(profile.language.value, registry)
        agent = _agent(capability_set, profile, registry, arm, client, stream, workspace)
        return run_agent(agent, started)
    except (ConfigError, LookupError) as refusal:  # a provider without its key; an arm not built
        return AgentEnd(RunStatus.REFUSED, message=str(refusal))
    except Exception as defect:  # gg's own failure: recorded for the operator, never the model
        stream.log(LogLevel.ERROR, f"gg failed: {defect!r}", traceback=traceback.format_exc())
        return AgentEnd(RunStatus.INTERNAL_ERROR, message=f"gg failed: {defect}")
    finally:
        if arm is not None:
            arm.close()


def _client(profile: AgentProfile, options: RunOptions, stream: AgentStream) -> ModelClient:
    binding = profile.model
    provider = options.provider or binding.provider.value
    overridden = options.provider is not None
    return build_client(
        provider=provider,
        model=options.model if overridden else binding.model,
        tool_choice_memory=ToolChoiceMemory(),
        log=lambda level, message, fields: stream.log(LogLevel(level), message, **fields),
        base_url=None if overridden else binding.base_url,
        api_key_env=None if overridden else binding.api_key_env,
        max_output_tokens=binding.max_output_tokens,
        temperature=binding.temperature,
        journal_path=options.journal or (None if overridden else binding.journal),
    )


def _agent(
    capability_set: CapabilitySet,
    profile: AgentProfile,
    registry: Registry,
    arm: Arm,
    client: ModelClient,
    stream: AgentStream,
    workspace: Path,
) -> Agent:
    language = LANGUAGES[profile.language.value]
    window = Window(system=system_prompt(registry, language, profile.role))
    if profile.task:
        window.push(Message(role="user", content=prompts.render("task", task=profile.task)))
    limits = capability_set.limits
    rate = limits.error_rate
    setup = AgentSetup(
        agent_id=stream.agent_id,
        role=profile.role,
        language=language.id,
        capabilities=frozenset(c.id.value for c in profile.capabilities if c.enabled),
        ceilings=profile.responses_as_code.ceilings,
        limits=Limits(
            max_turns=limits.max_turns,
            max_runtime_secs=limits.max_runtime_secs,
            max_consecutive_errors=limits.max_consecutive_errors,
            max_error_rate=None if rate is None else rate.threshold,
            error_rate_window=None if rate is None else rate.window,
            max_cost=limits.max_cost,
        ),
        max_output_tokens=profile.model.max_output_tokens,
        temperature=profile.model.temperature,
    )
    return Agent(
        setup=setup,
        client=client,
        arm=arm,
        registry=registry,
        stream=stream,
        window=window,
        views=ViewSet(),
        workspace=Workspace(workspace),
        tool=submit_program_tool(language.display_name),
    )


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
