"""Playback with a verdict: a stored run played again through the real turn loop, and held
against its record (`gg replay --verify RUN`, `gg.replay(run, verify=True)`).

Rules:
- Only a run that kept its start can be played (`gg.telemetry.start`: `gg run --record` keeps it):
  its capability set is loaded from the file it was launched with, a fresh copy of its starting
  workspace is made in a temporary folder (removed afterwards), and every model reply and every
  host function's or MCP tool's answer comes from its recording (a host function that imports is
  not called again: `RunOptions.recorded_first`). The guests, the workspace, the
  modules and the scheduler run for real, so what this build of gg does is what is compared.
- A path under the workspace compares as workspace-relative: wherever the playback's records hold
  its copy's path (a hook's payload or message, a refusal naming a file), it reads as the path the
  workspace had when the run was recorded (`relocated`).
- The playback is recorded nowhere: its records are held in memory and read once, by the verdict
  (`gg.playback.verdict`).
- The default fingerprint is `exact` for a run of one agent and `shape` for a run of many, whose
  agents take turns on threads whose timing no record fixes (`DEFAULT_FOR_MANY`).
- What cannot be played raises `Unverifiable`, saying why: a run the store does not hold, one that
  kept no start or a part of it, a recording that cannot be read (its file and every defective
  line, as `gg run --journal` names them), a capability set that no longer loads. A damaged
  recording is never played, so it is never called a divergence.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, cast

from gg.agents.run import RunOptions, execute_run
from gg.config import load_capability_set
from gg.errors import ConfigDefect, ConfigError
from gg.playback.fingerprint import Fingerprint
from gg.playback.verdict import Verdict, verdict_of
from gg.providers.journal import JournalError, read_journal
from gg.providers.recording import calls_said
from gg.record.reader import RunLookupError, open_reader
from gg.record.start import KeptStart, NoStart, kept_start
from gg.telemetry.clock import new_run_id
from gg.telemetry.emitter import CollectingSink, Telemetry
from gg.telemetry.events import EventType
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.store import RunStoreError
from gg.wire import escaped

DEFAULT_FOR_ONE = Fingerprint.EXACT
DEFAULT_FOR_MANY = Fingerprint.SHAPE


class Unverifiable(Exception):
    """A run that cannot be played back, and why."""


def verify_run(where: Path | StoreLocation, run_ref: str, fingerprint: Fingerprint | None = None) -> Verdict:
    """Play the run `run_ref` (an id, a unique prefix, `latest`) of the store at `where` (its file,
    or a location of either database) again and return its verdict; raises `Unverifiable`."""
    store = where if isinstance(where, Path) else where.path
    if (isinstance(where, Path) or where.backend is Backend.SQLITE) and not store.is_file():
        raise Unverifiable(f"there is no run store at {escaped(str(store))}")
    try:
        reader = open_reader(where)
    except RunStoreError as unreadable:
        raise Unverifiable(str(unreadable)) from None
    try:
        row = reader.find_run(run_ref)
        recorded: list[dict[str, Any]] = list(reader.events(row.id))
    except RunLookupError as missing:
        raise Unverifiable(str(missing)) from None
    finally:
        reader.close()
    start = kept_start(store, row.id)
    if isinstance(start, NoStart):
        raise Unverifiable(start.reason)
    _check_recording(start.journal, row.id)
    mode = fingerprint or default_fingerprint(recorded)
    return verdict_of(recorded, played(start), mode)


def _check_recording(journal: Path, run_id: str) -> None:
    """Raise `Unverifiable` for a recording with a defective line, or holding fewer or more model
    calls than its first line says (cut at a line's end, or changed)."""
    replies, defects = read_journal(journal)
    if not defects:
        said = calls_said(journal.read_text(encoding="utf-8"))
        if said is None or said == len(replies):
            return
        held = ConfigDefect(
            "journal", str(len(replies)), f"must hold the {said} model call(s) its first line says"
        )
        defects = [held]
    damaged = JournalError(escaped(str(journal)), defects)
    raise Unverifiable(f"the recording of run {run_id} cannot be read, so it cannot be verified: {damaged}")


def default_fingerprint(recorded: list[dict[str, Any]]) -> Fingerprint:
    """`exact` for a run of one agent, `shape` for a run of many."""
    agents = {r.get("agentId") for r in recorded if r.get("type") == EventType.AGENT_SPAWNED.value}
    return DEFAULT_FOR_ONE if len(agents) <= 1 else DEFAULT_FOR_MANY


def played(start: KeptStart) -> list[dict[str, Any]]:
    """The records of one run of the kept start, from a fresh copy of its workspace."""
    try:
        capability_set = load_capability_set(start.config_path)
    except ConfigError as refused:
        raise Unverifiable(f"its capability set no longer loads: {refused}") from None
    with tempfile.TemporaryDirectory(prefix="gg-playback-") as scratch:
        workspace = Path(scratch) / "workspace"
        shutil.copytree(start.workspace, workspace, symlinks=True)
        run_id = new_run_id()
        sink = CollectingSink()
        telemetry = Telemetry(run_id, [sink])
        options = RunOptions(
            config_path=start.config_path,
            workspace=workspace,
            provider="replay",
            journal=start.journal,
            session_id=run_id,
            recorded_first=True,
        )
        try:
            execute_run(capability_set, telemetry, options)
        finally:
            telemetry.close()
        return relocated(sink.wire(), workspace, start.recorded_at)


def relocated(records: list[dict[str, Any]], played_at: Path, recorded_at: Path) -> list[dict[str, Any]]:
    """`records` with the playback's workspace path read as the recorded one wherever a string
    holds it, so a path under the workspace compares as workspace-relative."""
    spellings = sorted({str(played_at), str(played_at.resolve())}, key=len, reverse=True)

    def moved(value: Any) -> Any:
        if isinstance(value, str):
            for spelling in spellings:
                value = value.replace(spelling, str(recorded_at))
            return value
        if isinstance(value, dict):
            return {key: moved(item) for key, item in cast(dict[str, Any], value).items()}
        if isinstance(value, list):
            return [moved(item) for item in cast(list[Any], value)]
        return value

    return [moved(record) for record in records]
