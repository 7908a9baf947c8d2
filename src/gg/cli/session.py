"""`gg run` and `gg replay`: a session launched from the command line, under telemetry (and a
recorder, which keeps the run's start too: `gg.telemetry.start`), ending with its exit code; and
`gg replay --verify RUN`, a recorded run played back and held against its record (`gg.playback`),
ending 0 faithful, 1 diverged, 2 when it cannot be played.

A refused launch is recorded by one rule: it is recorded, as a run whose status is `refused`,
once it has a run id, and never before. A launch gets its id once gg has read the capability set,
found every file the command line names (a `--journal`, a `--record` folder) and made sure the
run store lies outside the workspace; a refusal before that (a defect of the capability set, a
journal that does not exist, a workspace holding the store) prints its defects and records
nothing. What refuses the run after that (a key missing from the environment, a journal whose
lines are bad, a jail that cannot be made) is recorded, as a study's cells are.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from gg.cli.reading import STORE_OPTION, open_store, read_store
from gg.exits import REFUSED_EXIT
from gg.otel.command import otel_options

if TYPE_CHECKING:
    from gg.agents.run import RunOptions
    from gg.config.model import CapabilitySet
    from gg.otel.settings import OtelSettings
    from gg.providers.recording import JournalRecorder
    from gg.telemetry.emitter import Telemetry
    from gg.telemetry.location import StoreLocation


WORKSPACE_OPTION = click.option(
    "--workspace",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Run against this workspace (an existing folder).",
)


@click.command()
@click.argument("config", type=click.Path(path_type=Path))
@WORKSPACE_OPTION
@click.option(
    "--model", "model_ref", metavar="PROVIDER:MODEL", help="Answer with this model (e.g. openai:gpt-4o)."
)
@click.option(
    "--journal", type=click.Path(path_type=Path, exists=True, dir_okay=False), help="Replay this journal."
)
@click.option(
    "--record", type=click.Path(path_type=Path, dir_okay=False), help="Record the replies as a journal."
)
@click.option("-v", "--verbose", is_flag=True, help="Show the operator's info lines too.")
@otel_options
@STORE_OPTION
def run(
    config: Path,
    workspace: Path | None,
    model_ref: str | None,
    journal: Path | None,
    record: Path | None,
    verbose: bool,
    otel: OtelSettings | None,
    where: StoreLocation,
) -> None:
    """Run the capability set CONFIG (a gg.json / gg.toml file, or a folder holding one)."""
    from gg.agents.run import RunOptions

    if journal is not None and model_ref is not None:
        raise click.UsageError("--journal replays a journal; it cannot be combined with --model")
    if record is not None and not record.name:  # "", ".", "..": Click reads each as a folder
        raise click.BadParameter("it names no file; give a new file's path", param_hint="'--record'")
    provider, model = _model_override(model_ref) if journal is None else ("replay", None)
    options = RunOptions(
        config_path=config, workspace=workspace, provider=provider, model=model, journal=journal
    )
    _run_session(options, where, verbose=verbose, record=record, otel=otel)


@click.command()
@click.argument("journal", required=False, type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.argument("config", required=False, type=click.Path(path_type=Path))
@WORKSPACE_OPTION
@click.option(
    "--verify", "run_ref", metavar="RUN", help="Play the stored run RUN again and say if it is faithful."
)
@click.option(
    "--fingerprint",
    type=click.Choice(["exact", "shape", "none"]),
    help="With --verify: how strictly requests are compared (exact for one agent, shape for many).",
)
@click.option("-v", "--verbose", is_flag=True, help="Show the operator's info lines too.")
@otel_options
@STORE_OPTION
def replay(
    journal: Path | None,
    config: Path | None,
    workspace: Path | None,
    run_ref: str | None,
    fingerprint: str | None,
    verbose: bool,
    otel: OtelSettings | None,
    where: StoreLocation,
) -> None:
    """Replay the journal JOURNAL (e.g. one `gg run --record` wrote) against CONFIG, offline; or,
    with --verify RUN, play a recorded run again and say whether it is faithful (exit 0) or where
    it first diverged (exit 1)."""
    from gg.agents.run import RunOptions

    if run_ref is not None:
        if journal is not None or config is not None or workspace is not None or otel is not None:
            raise click.UsageError(
                "--verify RUN plays the run from what it kept, recorded nowhere; "
                "it takes no JOURNAL, CONFIG, --workspace or --otel"
            )
        _verify(run_ref, where, fingerprint)
    if journal is None or config is None:
        raise click.UsageError("replay needs JOURNAL and CONFIG (or --verify RUN)")
    if fingerprint is not None:
        raise click.UsageError("--fingerprint goes with --verify RUN")
    options = RunOptions(config_path=config, workspace=workspace, provider="replay", journal=journal)
    _run_session(options, where, verbose=verbose, record=None, otel=otel)


def _verify(run_ref: str, where: StoreLocation, fingerprint: str | None) -> NoReturn:
    """`gg replay --verify RUN`: one verdict line; exit 0 faithful, 1 diverged, 2 not verifiable."""
    import sqlite3

    from gg.playback.fingerprint import Fingerprint
    from gg.playback.verify import Unverifiable, verify_run
    from gg.telemetry.store import RunStoreError

    mode = None if fingerprint is None else Fingerprint(fingerprint)
    try:
        verdict = verify_run(where, run_ref, mode)
    except (Unverifiable, RunStoreError, sqlite3.DatabaseError) as refused:
        click.echo(f"gg replay --verify: {refused}", err=True)
        _exit_after_run(REFUSED_EXIT)
    click.echo(verdict.said())
    _exit_after_run(0 if verdict.faithful else 1)


def _run_session(
    options: RunOptions,
    where: StoreLocation,
    *,
    verbose: bool,
    record: Path | None,
    otel: OtelSettings | None,
) -> None:
    """Load the capability set, run it under telemetry (and a recorder), exit with its code. A
    SIGTERM anywhere in it stops it as Ctrl-C does: before the run exists, the command ends with
    one line (`GgGroup`) and leaves no recording; after, the run is kept as it stood."""
    from gg.agents.interruption import taken_stops

    with taken_stops():
        _session(options, where, verbose=verbose, record=record, otel=otel)


def _session(
    options: RunOptions,
    where: StoreLocation,
    *,
    verbose: bool,
    record: Path | None,
    otel: OtelSettings | None,
) -> NoReturn:
    from gg.agents.run import execute_run
    from gg.telemetry.clock import new_run_id

    capability_set = _capability_set(options.config_path)
    workspace = options.workspace or capability_set.workspace
    _refuse_a_workspace_holding_the_store(workspace, where.path)
    recorder = None if record is None else _recorder(record, workspace, where.path)
    run_id = new_run_id()
    try:
        telemetry = _telemetry(where, run_id, verbose=verbose, recorder=recorder, otel=otel)
    except (SystemExit, KeyboardInterrupt):  # a store that cannot be used, a stop: no recording
        _discard_unrecorded(where, run_id, recorder)
        raise
    options = dataclasses.replace(options, session_id=run_id, recorder=recorder)
    try:
        try:
            if recorder is not None:
                _keep_start(where.path, run_id, options.config_path, workspace, recorder)
            result = execute_run(capability_set, telemetry, options)
        finally:
            telemetry.close()
        if recorder is not None and result.exit_code == REFUSED_EXIT:
            recorder.discard_unused()
        _exit_after_run(result.exit_code)
    except KeyboardInterrupt as stop:  # until gg leaves: one after the end was kept changes nothing
        _say_what_was_kept(where, run_id, stop, recorder)


def _keep_start(store: Path, run_id: str, config: Path, workspace: Path, recorder: JournalRecorder) -> None:
    """Keep what `gg replay --verify` plays the run again from; say so when it cannot be kept."""
    from gg.telemetry.start import keep_start

    unkept = keep_start(store, run_id, config, workspace, recorder)
    if unkept is not None:
        click.echo(unkept, err=True)


def _capability_set(path: Path) -> CapabilitySet:
    """The capability set at `path`; a defect ends the command, printed, exit 2."""
    from gg.agents.profiles import own_modules_judge
    from gg.config import load_capability_set
    from gg.errors import ConfigError

    try:
        return load_capability_set(path, operations=own_modules_judge())
    except ConfigError as refusal:
        click.echo(str(refusal), err=True)
        sys.exit(REFUSED_EXIT)


def _exit_after_run(code: int) -> NoReturn:
    """Exit with `code` once the run is recorded; a stop from here on leaves at once with it. The
    heap is frozen first (`gc.freeze`): the interpreter's last collections then skip every object
    the run made, which would otherwise hold up the exit of a big tree, after Ctrl-C or SIGTERM
    too."""
    from gg.agents.interruption import leave_on_stop

    leave_on_stop(code)
    gc.freeze()
    sys.exit(code)


def _say_what_was_kept(
    where: StoreLocation, run_id: str, stop: KeyboardInterrupt, recorder: JournalRecorder | None
) -> NoReturn:
    """Ctrl-C or SIGTERM: the run is kept as it stood; say where, how far it got and how to read
    it, and exit 128 + the signal's number. A run stopped before it recorded anything (while its
    start was being kept) leaves nothing behind: no empty run folder, no empty journal. A stop
    that came once the run's end was recorded changes nothing: gg exits with the recorded code."""
    from gg.agents.interruption import said_of, signal_of
    from gg.loop.status import RunStatus, exit_code_of
    from gg.record.reader import RunLookupError

    exit_code = exit_code_of(RunStatus.INTERRUPTED, signal_of(stop))
    interrupted = said_of(stop)
    store = open_store(where, create=False)
    try:
        row = read_store(lambda: store.find_run(run_id), where)
    except RunLookupError:
        _discard_unrecorded(where, run_id, recorder)
        click.echo(f"\ngg: {interrupted} before run {run_id} recorded anything.", err=True)
        _exit_after_run(exit_code)
    finally:
        store.close()
    if row.exit_code is not None and row.status != RunStatus.INTERRUPTED.value:
        ended = f"{row.status}, exit {row.exit_code}"
        click.echo(f"\ngg: {interrupted} after run {run_id} had ended ({ended}); its end stands.", err=True)
        _exit_after_run(row.exit_code)
    turns = row.turns
    counted = "1 turn" if turns == 1 else f"{turns} turns"
    kept_in = where.shown
    click.echo(
        f"\ngg: {interrupted}. Run {run_id} is kept in {kept_in} as it stood: {counted}, "
        f"every event up to the interruption. Read it with: gg show {run_id}",
        err=True,
    )
    _exit_after_run(exit_code)


def _discard_unrecorded(where: StoreLocation, run_id: str, recorder: JournalRecorder | None) -> None:
    """Remove run `run_id`'s folder while its events file holds nothing, and an unused journal."""
    from gg.telemetry.layout import run_events_beside

    events = run_events_beside(where.path, run_id)
    with contextlib.suppress(OSError):
        if events.stat().st_size == 0:
            shutil.rmtree(events.parent)
    if recorder is not None:
        recorder.discard_unused()


def _telemetry(
    where: StoreLocation,
    run_id: str,
    *,
    verbose: bool,
    recorder: JournalRecorder | None,
    otel: OtelSettings | None,
) -> Telemetry:
    """A run's telemetry: its record (the run store, its NDJSON file, the recorder), watched by the
    live display and the OpenTelemetry export."""
    from gg.otel.sink import live_sink
    from gg.telemetry.emitter import Sink, Telemetry
    from gg.telemetry.layout import run_events_beside
    from gg.telemetry.ndjson import NdjsonSink
    from gg.terminal.display import LiveDisplay
    from gg.terminal.glyphs import RunConsole

    store = open_store(where, create=True)
    display = LiveDisplay(
        RunConsole(highlight=False), operator=RunConsole(stderr=True, highlight=False), verbose=verbose
    )
    local = NdjsonSink(Path.cwd(), run_id, path=run_events_beside(where.path, run_id))
    record: list[Sink] = [store, local, *([recorder] if recorder else [])]
    watchers: list[Sink] = [display, *([live_sink(run_id, otel, sys.stderr)] if otel else [])]
    return Telemetry(run_id, record, watchers=watchers)


def _recorder(record: Path, workspace: Path, store: Path) -> JournalRecorder:
    """A recorder for a new file outside the workspace (where programs could rewrite it) and
    outside the run store's own files (the store file `store`, its SQLite companions and the
    runs' folder beside it), which gg rewrites and removes."""
    from gg.providers.recording import JournalRecorder
    from gg.telemetry.layout import runs_beside
    from gg.wire import escaped

    try:
        target = record.parent.resolve() / record.name
        if target.is_relative_to(runs_beside(store).resolve()) or (
            target.parent == store.parent.resolve() and target.name.startswith(store.name)
        ):
            raise FileExistsError("it lies among the run store's own files, which gg rewrites")
        return JournalRecorder.create_outside(record, workspace)
    except OSError as unwritable:
        click.echo(f"gg: cannot record to {escaped(str(record))}: {unwritable}", err=True)
        sys.exit(REFUSED_EXIT)


def _refuse_a_workspace_holding_the_store(workspace: Path, store: Path) -> None:
    """A program may touch anything in its workspace, so the run store (and the runs' local
    copies beside the store file `store`) must lie outside it."""
    from gg.telemetry.layout import holds_store, store_inside_workspace

    if holds_store(workspace, store):
        refusal = store_inside_workspace(workspace, store)
        click.echo(f"gg: {refusal}. Run gg from a folder outside the workspace.", err=True)
        sys.exit(REFUSED_EXIT)


def _model_override(reference: str | None) -> tuple[str | None, str | None]:
    from gg.providers.factory import parse_model_reference

    if reference is None:
        return None, None
    try:
        return parse_model_reference(reference)
    except ValueError as wrong:
        raise click.BadParameter(str(wrong), param_hint="--model") from None
