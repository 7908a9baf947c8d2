"""The host families a run serves (`gg.sdk.host`): bound before its first turn, and named in its
launch log.

Binding reads the host lines of every journal the run's agents replay, so a family only the
recording holds is answered from it, each agent's calls from its own recorded answers; it records
each family's declaration and every answer into the journal being written (`--record`), and
tells the operator, with its traceback, of every host function that failed. A family that cannot
be served is the run's refusal, naming every entry at fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gg.config.model import CapabilitySet
from gg.errors import ConfigError
from gg.providers.recording import JournalRecorder
from gg.run.stream import AgentStream
from gg.sdk.host.binding import HostBinding, HostServices, bind_host_families
from gg.sdk.host.family import HostFamily
from gg.sdk.host.recording import read_host_recordings
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import Log, LogLevel


def bind_run_families(
    capability_set: CapabilitySet,
    telemetry: Telemetry,
    given: Sequence[HostFamily],
    recorder: JournalRecorder | None,
    replayed: Sequence[Path],
) -> tuple[HostBinding, ConfigError | None]:
    """The run's host functions, or the refusal naming every family that cannot be served."""

    def report(agent_id: str, turn: int, message: str, trace: str | None) -> None:
        fields = {} if trace is None else {"traceback": trace}
        telemetry.emit(agent_id, turn, Log(level=LogLevel.ERROR.value, message=message, fields=fields))

    try:
        recording = read_host_recordings(replayed)
        services = HostServices(report, None if recorder is None else recorder.record_host, recording)
        return bind_host_families(capability_set, given, services), None
    except ConfigError as refusal:
        return HostBinding(), refusal


def log_run_families(stream: AgentStream, host: HostBinding) -> None:
    """The launch log: families handed to the run that no profile lists, and those answered from
    the recording."""
    if host.unused:
        stream.warn(
            f"no profile lists the host families {', '.join(host.unused)}", families=list(host.unused)
        )
    if host.replayed:
        names = ", ".join(host.replayed)
        stream.log_info(f"host families answered from the recording: {names}", families=list(host.replayed))
