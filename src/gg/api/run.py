"""`gg.run`: one run of a capability set from Python, recorded exactly as `gg run` records it.

- The run writes the same record as the command line: the run store and the run's NDJSON file,
  `store` naming the store as `--store` does (a folder holding `.gg/`, a `runs.db`, a
  `sqlite:///` or `postgresql://` URL; `GG_STORE`, else the working directory's, unless given),
  so `gg runs`, `gg show` and the console read it like any other; nothing is printed. A
  PostgreSQL server that cannot be reached raises `gg.telemetry.postgres.StoreUnreachable`.
- `on_event` receives every event as it is emitted, after the store and the NDJSON file hold it:
  the typed `gg.Event` whose `to_wire()` is the line the NDJSON file holds (an event the record
  could not keep never reaches it). A callback that raises is dropped for the rest of the run,
  said once on stderr, and the run goes on.
- A record that cannot be written (a full disk) ends the run `internal_error`, said on stderr
  naming the file and the cause; one that cannot be written at the run's first event refuses it.
- `model` answers the root agent: a `ModelClient` (any object with `model_id` and
  `complete(request)`), or `"PROVIDER:MODEL"` as `--model` takes it; `journal` replays a journal
  instead (the two do not combine); `record` writes every agent's replies, and the host
  functions' answers, to a new journal file, and keeps the run's start for `gg.replay(run,
  verify=True)` when `config` is a file or folder (a document names no file to load it from).
- `families` are the host families profiles may name by name: each the `gg.family(...)` itself,
  or an importable `package.module:attribute` naming one, as a profile may write it. A root
  handed its model (`model` or `journal`) need not name one in its profile.
- `otel=True` (or `GG_OTEL=1`) exports the run as OpenTelemetry traces while it runs, as
  `gg run --otel` does (`otel_content=True` with message and program contents); asking for it
  without the `otel` extra installed raises `gg.ConfigError`, and an unreachable collector is one
  warning on stderr, never the run's failure.
- What refuses the launch before a run exists (a capability set with defects, a `model` that is
  no `ModelClient`, a journal that does not exist, a workspace that is missing or holds the store,
  a recording file that exists, a family that is neither a family nor imports as one) raises
  `gg.ConfigError` and records nothing, as `gg run` does (so does an entry of `hooks` that is no
  hook made by `gg.hook`); whatever the run itself meets (a missing
  key, a host family that cannot be served) ends it `refused` or otherwise, never an exception.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gg.errors import ConfigDefect, ConfigError, FatalFault, GgDefect

if TYPE_CHECKING:
    from gg.agents.run import RunOptions, World
    from gg.api.result import RunResult
    from gg.config.model import CapabilitySet
    from gg.loop.hooks import PythonHook
    from gg.otel.settings import OtelSettings
    from gg.providers.base import ModelClient
    from gg.providers.recording import JournalRecorder
    from gg.sdk.host.family import HostFamily
    from gg.telemetry.emitter import Sink, Telemetry
    from gg.telemetry.events import Event, RunFinished
    from gg.telemetry.location import StoreLocation

LAUNCH = "gg.run"


def run(
    config: str | Path | Mapping[str, Any] | CapabilitySet,
    *,
    model: ModelClient | str | None = None,
    workspace: str | Path | None = None,
    journal: str | Path | None = None,
    record: str | Path | None = None,
    store: str | Path | None = None,
    on_event: Callable[[Event], None] | None = None,
    families: Sequence[HostFamily | str] | None = None,
    otel: bool = False,
    otel_content: bool = False,
    hooks: Sequence[PythonHook] | None = None,
) -> RunResult:
    """Run the capability set `config` (a path, a document, or a `CapabilitySet`) to its end and
    return how it ended; each keyword is `gg run`'s option of that name, and `workspace` replaces
    the capability set's (the module's documentation says more of each). Raises
    `gg.ConfigError` when the launch is refused before the run starts."""
    from gg.agents.run import execute_run
    from gg.api.load import load_for_run
    from gg.telemetry.clock import new_run_id

    capability_set = load_for_run(config, root_model_handed=model is not None or journal is not None)
    where = _where(store)
    chosen = Path(workspace) if workspace is not None else capability_set.workspace
    handed = (_refuse_before_the_run(chosen, where.path, journal, model, families or ()), _hooks(hooks or ()))
    exporting = _otel(otel, otel_content)
    recorder = None if record is None else _recorder(Path(record), chosen)
    kept = _store(where, recorder)
    run_id = new_run_id()
    options, world = _launch(config, chosen, model, journal, recorder, run_id, handed)
    ending = _Ending()
    telemetry = _telemetry(kept, where, run_id, ending, on_event, recorder, exporting)
    _keep_start(where.path, run_id, config, chosen, recorder)
    try:
        execute_run(capability_set, telemetry, options, world)
    finally:
        telemetry.close()
    return _result(run_id, ending, recorder)


def _keep_start(
    store: Path, run_id: str, config: object, workspace: Path, recorder: JournalRecorder | None
) -> None:
    """Keep what `gg replay --verify` plays a recorded run again from, and say so when it cannot
    be kept; a capability set handed as a document has no file to play it from."""
    from gg.telemetry.start import keep_start

    if recorder is None or not isinstance(config, str | Path):
        return
    unkept = keep_start(store, run_id, Path(config), workspace, recorder)
    if unkept is not None:
        print(unkept, file=sys.stderr)


def _hooks(given: Sequence[object]) -> tuple[PythonHook, ...]:
    """The Python hooks handed in; raises `ConfigError` naming every entry that is none."""
    from gg.loop.hooks import PythonHook

    defects = [
        ConfigDefect(f"hooks[{index}]", _shown(entry), "must be a hook made by gg.hook(event)(fn)")
        for index, entry in enumerate(given)
        if not isinstance(entry, PythonHook)
    ]
    if defects:
        raise ConfigError(LAUNCH, defects)
    return tuple(entry for entry in given if isinstance(entry, PythonHook))


def _result(run_id: str, ending: _Ending, recorder: JournalRecorder | None) -> RunResult:
    """The run's result, read off its `run_finished` record; a launch refused before anything was
    recorded leaves no recording."""
    from gg.api.result import result_of

    if ending.finished is None:  # every run ends with this record; its absence is gg's own defect
        raise GgDefect(FatalFault.HOST_FAULT, f"run {run_id} ended without its run_finished record")
    result = result_of(run_id, ending.finished)
    if recorder is not None and result.status == "refused":
        recorder.discard_unused()
    return result


def _launch(
    config: object,
    workspace: Path,
    model: ModelClient | str | None,
    journal: str | Path | None,
    recorder: JournalRecorder | None,
    run_id: str,
    handed: tuple[tuple[HostFamily, ...], tuple[PythonHook, ...]],
) -> tuple[RunOptions, World]:
    """What the run is told: the command line's overrides, and what it is handed (its host
    families, its Python hooks)."""
    from gg.agents.run import RunOptions, World
    from gg.api.load import source_of

    client, provider, model_id = _model(model, journal)
    options = RunOptions(
        config_path=source_of(config),
        workspace=workspace,
        provider=provider,
        model=model_id,
        journal=None if journal is None else Path(journal),
        session_id=run_id,
        recorder=recorder,
    )
    return options, World(client=client, families=handed[0], hooks=handed[1])


def _families(given: Sequence[object], defects: list[ConfigDefect]) -> tuple[HostFamily, ...]:
    """Each family handed in, those named by `package.module:attribute` imported; a defect in
    `defects` for every entry that is neither a family nor imports as one."""
    families: list[HostFamily] = []
    for index, entry in enumerate(given):
        try:
            families.append(_family(entry))
        except LookupError as wrong:
            defects.append(ConfigDefect(f"families[{index}]", _shown(entry), str(wrong)))
    return tuple(families)


def _family(entry: object) -> HostFamily:
    from gg.sdk.host.family import HostFamily
    from gg.sdk.host.sources import import_family

    if isinstance(entry, HostFamily):
        return entry
    if isinstance(entry, str) and ":" in entry:
        return import_family(entry)
    if isinstance(entry, str):
        raise LookupError(
            "is a family's name, which a profile lists; hand the family itself (made by gg.family) "
            "or the `package.module:attribute` naming it"
        )
    raise LookupError("must be a host family (made by gg.family) or a `package.module:attribute` naming one")


def _shown(value: object) -> str:
    shown = value if isinstance(value, str) else repr(value)
    return shown if len(shown) <= 80 else f"{shown[:79]}…"


def _where(store: str | Path | None) -> StoreLocation:
    """The store `store` names (see `gg.telemetry.location`); `ConfigError` for one gg cannot read."""
    from gg.telemetry.location import BadStoreUrl, store_location

    try:
        return store_location(store, base=Path.cwd())
    except BadStoreUrl as bad:
        raise ConfigError(LAUNCH, [ConfigDefect("store", _shown(str(store)), str(bad))]) from None


def _refuse_before_the_run(
    workspace: Path, base: Path, journal: str | Path | None, model: object, families: Sequence[object]
) -> tuple[HostFamily, ...]:
    """The families handed in; raises `ConfigError` naming every defect of the launch."""
    from gg.telemetry.layout import holds_store, store_inside_workspace

    defects: list[ConfigDefect] = [] if (wrong := _not_a_model(model)) is None else [wrong]
    handed = _families(families, defects)
    if journal is not None and model is not None:
        defects.append(
            ConfigDefect("journal", str(journal), "replays a journal; it cannot be combined with model")
        )
    elif journal is not None and not Path(journal).is_file():
        defects.append(ConfigDefect("journal", str(journal), "must name an existing file"))
    if not workspace.is_dir():
        defects.append(ConfigDefect("workspace", str(workspace), "must name an existing folder"))
    elif holds_store(workspace, base):
        reason = f"{store_inside_workspace(workspace, base)}; give a store outside the workspace"
        defects.append(ConfigDefect("store", str(base), reason))
    if defects:
        raise ConfigError(LAUNCH, defects)
    return handed


def _not_a_model(model: object) -> ConfigDefect | None:
    """What keeps `model` from answering, when it is an object: the `gg.ModelClient` protocol
    asks for a `model_id` string and a `complete(request)` method."""
    if model is None or isinstance(model, str):
        return None
    needs: list[str] = []
    if not isinstance(getattr(model, "model_id", None), str):
        needs.append("a `model_id` string")
    if not callable(getattr(model, "complete", None)):
        needs.append("a `complete(request) -> gg.Reply` method")
    if not needs:
        return None
    reason = f'must be "PROVIDER:MODEL" or a gg.ModelClient, which needs {" and ".join(needs)}'
    return ConfigDefect("model", _shown(model), reason)


def _model(
    model: ModelClient | str | None, journal: object
) -> tuple[ModelClient | None, str | None, str | None]:
    """(the client handed in, the provider, the model) the root answers with."""
    from gg.providers.factory import parse_model_reference

    if journal is not None:
        return None, "replay", None
    if model is None:
        return None, None, None
    if isinstance(model, str):
        try:
            provider, name = parse_model_reference(model)
        except ValueError as wrong:
            raise ConfigError(LAUNCH, [ConfigDefect("model", model, str(wrong))]) from None
        return None, provider, name
    return model, None, None


def _recorder(record: Path, workspace: Path) -> JournalRecorder:
    from gg.providers.recording import JournalRecorder

    try:
        return JournalRecorder.create_outside(record, workspace)
    except OSError as unwritable:
        raise ConfigError(
            LAUNCH, [ConfigDefect("record", str(record), f"cannot be written: {unwritable}")]
        ) from None


def _telemetry(
    store: Sink,
    where: StoreLocation,
    run_id: str,
    ending: _Ending,
    on_event: Callable[[Event], None] | None,
    recorder: JournalRecorder | None,
    otel: OtelSettings | None,
) -> Telemetry:
    """The record (the run store, the NDJSON file, the recorder), watched by the run's ending, the
    caller's callback and the OpenTelemetry export."""
    import sys

    from gg.otel.sink import live_sink
    from gg.telemetry.emitter import Telemetry
    from gg.telemetry.layout import run_events_beside
    from gg.telemetry.ndjson import NdjsonSink

    local = NdjsonSink(Path.cwd(), run_id, path=run_events_beside(where.path, run_id))
    record: list[Sink] = [store, local, *([recorder] if recorder is not None else [])]
    watchers: list[Sink] = [ending, *([_Callback(on_event)] if on_event is not None else [])]
    if otel is not None:
        watchers.append(live_sink(run_id, otel, sys.stderr))
    return Telemetry(run_id, record, watchers=watchers)


def _otel(otel: bool, content: bool) -> OtelSettings | None:
    """The export asked for (`otel`, `otel_content`, `GG_OTEL`); without the extra, a refusal."""
    import os

    from gg.otel.delivery import MissingExtra
    from gg.otel.sink import asked_settings

    try:
        return asked_settings(os.environ, flag=otel, content=content)
    except MissingExtra as missing:
        raise ConfigError(LAUNCH, [ConfigDefect("otel", str(otel or content), str(missing))]) from None


def _store(where: StoreLocation, recorder: JournalRecorder | None) -> Sink:
    """The run store at `where`, opened after the recording was made, so a recording that cannot
    be made leaves no store behind; a store that cannot be used removes the recording again. A
    PostgreSQL server that cannot be reached raises `StoreUnreachable` (naming the URL without
    its password), as it is no defect of the launch."""
    import sqlite3

    from gg.record.store import RunStore
    from gg.telemetry.postgres import StoreUnreachable
    from gg.telemetry.store import RunStoreError

    try:
        return RunStore(where, create=True)
    except (RunStoreError, sqlite3.DatabaseError, OSError) as unusable:
        if recorder is not None:
            recorder.discard_unused()
        if isinstance(unusable, StoreUnreachable):
            raise
        raise ConfigError(
            LAUNCH, [ConfigDefect("store", where.shown, f"cannot be used: {unusable}")]
        ) from None


class _Ending:
    """Keeps the run's `run_finished` payload, which the result is read from."""

    def __init__(self) -> None:
        self.finished: RunFinished | None = None

    def write(self, event: Event) -> None:
        from gg.telemetry.events import RunFinished

        if isinstance(event.payload, RunFinished):
            self.finished = event.payload

    def close(self) -> None:
        pass


class _Callback:
    """The caller's `on_event`, as a sink."""

    def __init__(self, on_event: Callable[[Event], None]) -> None:
        self._on_event = on_event

    def write(self, event: Event) -> None:
        self._on_event(event)

    def close(self) -> None:
        pass
