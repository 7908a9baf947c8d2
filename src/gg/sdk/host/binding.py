"""A run's host functions, bound once at launch (`bind_host_families`): the families its profiles
name (`gg.sdk.host.sources`), as registry entries with their handlers, and the capability set with
every entry spelled as the family it names (so each profile is granted `host-functions:<family>`).

Each call a function answers is recorded when the run writes a recording, as is each family's
declaration at launch; a family only the replayed recording holds is answered from it. A live call
is given its family's `timeout_secs`, at most what is left of the run's time. A function's failure
(an abandoned call included) is told to the operator with its traceback (`HostServices.report`);
the program is told only its message. `HostBinding.close` closes what it was given to close on the
loop (the run's MCP connections, `gg.mcp.binding`), then stops the private loop of the async
functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gg.config.model import CapabilitySet, HostFunctionsCapability, HostFunctionsParams
from gg.deadline import within
from gg.errors import ConfigDefect, ConfigError
from gg.sdk.host.answers import HostAnswer, ReplayedAnswers
from gg.sdk.host.calling import FunctionLoop, call_function
from gg.sdk.host.declaration import FunctionDeclaration
from gg.sdk.host.family import HostFamily, HostFunction
from gg.sdk.host.operations import HandlerOf, host_entries
from gg.sdk.host.recording import HostRecording, answer_line, family_line
from gg.sdk.host.sources import SOURCE, Source, Sources, resolve_sources
from gg.sdk.records import SDK_TYPES
from gg.sdk.registry import Handler, Operation
from gg.sdk.scope import ProgramScope
from gg.sdk.shapes import RecordShape
from gg.sdk.types import TypeDecl

Report = Callable[[str, int, str, str | None], None]  # (agent id, turn, message, traceback)
KeepLine = Callable[[dict[str, Any], str | None], None]  # a host line to record, and whose call it answered


@dataclass(frozen=True)
class HostServices:
    """What the run lends its host functions: the operator's log, the recording being written
    (None when none is) and the recording being replayed (empty when none is)."""

    report: Report
    record: KeepLine | None = None
    recording: HostRecording = field(default_factory=HostRecording)


@dataclass
class HostBinding:
    """What the run serves: the registry entries, the capability set with every entry named by its
    family (None when nothing was bound), and the launch log's notes."""

    operations: tuple[Operation, ...] = ()
    types: tuple[TypeDecl, ...] = ()
    briefs: dict[str, str] = field(default_factory=dict[str, str])
    capability_set: CapabilitySet | None = None
    unused: tuple[str, ...] = ()  # families handed to the run that no profile lists
    replayed: tuple[str, ...] = ()  # families answered from the recording, their functions absent
    loop: FunctionLoop = field(default_factory=FunctionLoop)
    closing: tuple[Callable[[], None], ...] = ()  # what is closed before the loop (MCP connections)

    def close(self) -> None:
        try:
            for close in self.closing:
                close()
        finally:
            self.loop.close()


def bind_host_families(
    capability_set: CapabilitySet, given: Sequence[HostFamily], services: HostServices
) -> HostBinding:
    """The run's host functions. Raises `ConfigError` naming every entry that cannot be served."""
    sources = resolve_sources(capability_set, given, services.recording)
    _refuse_record_clashes(sources.families)
    loop = FunctionLoop()
    answers = ReplayedAnswers.of(services.recording.answers)
    served = [(source.declaration, _serving(source, loop, answers, services)) for source in sources.families]
    entries = host_entries(served)
    if services.record is not None:
        for source in sources.families:
            services.record(family_line(source.declaration, source.entry), None)
    return HostBinding(
        operations=entries.operations,
        types=entries.types,
        briefs=dict(entries.briefs),
        capability_set=_named_by_family(capability_set, sources),
        unused=sources.unused,
        replayed=tuple(source.name for source in sources.families if source.live is None),
        loop=loop,
    )


def _serving(
    source: Source, loop: FunctionLoop, answers: ReplayedAnswers, services: HostServices
) -> HandlerOf:
    """How each function of `source` is served: called when live, else from the recording."""
    live = source.live

    def handler_of(declaration: FunctionDeclaration) -> Handler:
        wire = f"{source.name}.{declaration.name}"
        function = None if live is None else live.function(declaration.name)
        if function is not None:
            return _live(function, wire, loop, services)
        return _replayed(declaration.name, wire, answers, services)

    return handler_of


def _live(function: HostFunction, wire: str, loop: FunctionLoop, services: HostServices) -> Handler:
    def handle(scope: ProgramScope, values: Any) -> Any:
        secs = within(function.timeout_secs, scope.time_left())
        called = call_function(function, wire, values, loop, secs)
        if called.failure is not None:
            services.report(scope.agent_id, scope.turn, called.failure, called.traceback)
        return give(called.answer, function.declaration.name, scope, services)

    return handle


def _replayed(key: str, wire: str, answers: ReplayedAnswers, services: HostServices) -> Handler:
    def handle(scope: ProgramScope, values: Any) -> Any:
        return give(answers.next(scope.agent_id, key, wire, values), key, scope, services)

    return handle


def give(answer: HostAnswer, key: str, scope: ProgramScope, services: HostServices) -> Any:
    """The answer handed to the program as the operation `key`'s, recorded first when the run
    writes a recording."""
    if services.record is not None:
        services.record(answer_line(scope.agent_id, answer), scope.agent_id)
    return answer.give(key)


def _refuse_record_clashes(families: Sequence[Source]) -> None:
    """A record named like one of gg's own types, or like another family's different record."""
    own = {decl.name for decl in SDK_TYPES}
    seen: dict[str, RecordShape] = {}
    defects: list[ConfigDefect] = []
    for source in families:
        for record in source.declaration.records():
            if record.name in own:
                reason = "names a record like one of gg's own types"
            elif seen.setdefault(record.name, record) != record:
                reason = "names a record another family declares otherwise"
            else:
                continue
            defects.append(ConfigDefect(f"the family {source.name}", record.name, reason))
    if defects:
        raise ConfigError(SOURCE, defects)


def _named_by_family(capability_set: CapabilitySet, sources: Sources) -> CapabilitySet:
    """`capability_set` with every host family entry spelled as the family's name."""
    agents = tuple(
        agent.model_copy(
            update={"capabilities": tuple(_renamed(c, sources.names) for c in agent.capabilities)}
        )
        for agent in capability_set.agents
    )
    return capability_set.model_copy(update={"agents": agents})


def _renamed(capability: Any, names: dict[str, str]) -> Any:
    if not isinstance(capability, HostFunctionsCapability) or not capability.enabled:
        return capability
    families = tuple(names.get(entry, entry) for entry in capability.params.families)
    return capability.model_copy(update={"params": HostFunctionsParams.model_construct(families=families)})
