"""The `gg` command line: run, replay, check, schema, runs, show, docs, study, console, mcp.

Exit codes of `gg run`: 0 the session ended; 1 gg's own defect or an unreachable model; 2 a
refused launch; 3 a ceiling stopped the run; 130 the operator interrupted it (Ctrl-C), 143 a
SIGTERM stopped it (as `timeout`, systemd or `docker stop` send it), and gg says, for either,
which run was kept and how to read it.

A refused launch is recorded by one rule: it is recorded, as a run whose status is `refused`,
once it has a run id, and never before. A launch gets its id once gg has read the capability set,
found every file the command line names (a `--journal`, a `--record` folder) and made sure the
run store lies outside the workspace; a refusal before that (a defect of the capability set, a
journal that does not exist, a workspace holding the store) prints its defects and records
nothing. What refuses the run after that (a key missing from the environment, a journal whose
lines are bad, a jail that cannot be made) is recorded, as a study's cells are.

Each command imports what it uses when it runs, never at the top of this module: `gg --version`
loads click alone, `gg runs` and `gg show` the run store and the terminal views, and only a run
that answers with a hosted model loads that provider's SDK (`gg.providers.factory`).
`gg runs --json` and `gg show --json` print the documents `gg.telemetry.export` describes.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from gg import __version__
from gg.console.command import console
from gg.mcp.command import mcp
from gg.study.cli import study

if TYPE_CHECKING:
    from gg.providers.recording import JournalRecorder
    from gg.run.run import RunOptions
    from gg.telemetry.emitter import Telemetry
    from gg.telemetry.store import RunStore

REFUSED_EXIT = 2
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON instead.")
T = TypeVar("T")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, package_name="gg")
def main() -> None:
    """gg: agents that answer every turn with a whole program."""


WORKSPACE_OPTION = click.option(
    "--workspace",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Run against this workspace (an existing folder).",
)


@main.command()
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
def run(
    config: Path,
    workspace: Path | None,
    model_ref: str | None,
    journal: Path | None,
    record: Path | None,
    verbose: bool,
) -> None:
    """Run the capability set CONFIG (a gg.json / gg.toml file, or a folder holding one)."""
    from gg.run.run import RunOptions

    if journal is not None and model_ref is not None:
        raise click.UsageError("--journal replays a journal; it cannot be combined with --model")
    provider, model = _model_override(model_ref) if journal is None else ("replay", None)
    options = RunOptions(
        config_path=config, workspace=workspace, provider=provider, model=model, journal=journal
    )
    _run_session(options, verbose=verbose, record=record)


@main.command()
@click.argument("journal", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.argument("config", type=click.Path(path_type=Path))
@WORKSPACE_OPTION
@click.option("-v", "--verbose", is_flag=True, help="Show the operator's info lines too.")
def replay(journal: Path, config: Path, workspace: Path | None, verbose: bool) -> None:
    """Replay the journal JOURNAL (e.g. one `gg run --record` wrote) against CONFIG, offline."""
    from gg.run.run import RunOptions

    options = RunOptions(config_path=config, workspace=workspace, provider="replay", journal=journal)
    _run_session(options, verbose=verbose, record=None)


def _run_session(options: RunOptions, *, verbose: bool, record: Path | None) -> None:
    """Load the capability set, run it under telemetry (and a recorder), exit with its code."""
    from gg.config import load_capability_set
    from gg.errors import ConfigError
    from gg.run.interruption import sigterm_interrupts
    from gg.run.run import execute_run
    from gg.telemetry.clock import new_run_id

    try:
        capability_set = load_capability_set(options.config_path)
    except ConfigError as refusal:
        click.echo(str(refusal), err=True)
        sys.exit(REFUSED_EXIT)
    base = Path.cwd()
    workspace = options.workspace or capability_set.workspace
    _refuse_a_workspace_holding_the_store(workspace, base)
    recorder = None if record is None else _recorder(record, workspace)
    run_id = new_run_id()
    try:
        telemetry = _telemetry(base, run_id, verbose=verbose, recorder=recorder)
    except SystemExit:  # a store that cannot be used: the recording goes with the launch
        if recorder is not None:
            recorder.discard_unused()
        raise
    options = dataclasses.replace(options, session_id=run_id, recorder=recorder)
    try:
        try:
            with sigterm_interrupts():
                result = execute_run(capability_set, telemetry, options)
        finally:
            telemetry.close()
    except KeyboardInterrupt as stop:
        _say_what_was_kept(base, run_id, stop)
    if recorder is not None and result.exit_code == REFUSED_EXIT:
        recorder.discard_unused()
    sys.exit(result.exit_code)


def _say_what_was_kept(base: Path, run_id: str, stop: KeyboardInterrupt) -> NoReturn:
    """Ctrl-C or SIGTERM: the run is kept as it stood; say where, how far it got and how to read
    it, and exit 128 + the signal's number."""
    from gg.run.interruption import said_of, signal_of
    from gg.run.status import RunStatus, exit_code_of
    from gg.telemetry.layout import store_path
    from gg.telemetry.store import RunLookupError
    from gg.wire import escaped

    exit_code = exit_code_of(RunStatus.INTERRUPTED, signal_of(stop))
    interrupted = said_of(stop)
    store = _open_store(base, create=False)
    try:
        turns = _read(lambda: store.find_run(run_id).turns)
    except RunLookupError:
        click.echo(f"\ngg: {interrupted} before run {run_id} recorded anything.", err=True)
        sys.exit(exit_code)
    finally:
        store.close()
    counted = "1 turn" if turns == 1 else f"{turns} turns"
    kept_in = escaped(str(store_path(base)))
    click.echo(
        f"\ngg: {interrupted}. Run {run_id} is kept in {kept_in} as it stood: {counted}, "
        f"every event up to the interruption. Read it with: gg show {run_id}",
        err=True,
    )
    sys.exit(exit_code)


def _telemetry(base: Path, run_id: str, *, verbose: bool, recorder: JournalRecorder | None) -> Telemetry:
    """A run's telemetry: the run store, its NDJSON file, the live display (and the recorder)."""
    from gg.telemetry.display import LiveDisplay
    from gg.telemetry.emitter import Sink, Telemetry
    from gg.telemetry.ndjson import NdjsonSink
    from gg.telemetry.terminal import RunConsole

    store = _open_store(base, create=True)
    display = LiveDisplay(
        RunConsole(highlight=False), operator=RunConsole(stderr=True, highlight=False), verbose=verbose
    )
    sinks: list[Sink] = [store, NdjsonSink(base, run_id), display]
    return Telemetry(run_id, [*sinks, *([recorder] if recorder else [])])


def _recorder(record: Path, workspace: Path) -> JournalRecorder:
    """A recorder for a new file outside the workspace (where programs could rewrite it)."""
    from gg.providers.recording import JournalRecorder
    from gg.wire import escaped

    try:
        return JournalRecorder.create_outside(record, workspace)
    except OSError as unwritable:
        click.echo(f"gg: cannot record to {escaped(str(record))}: {unwritable}", err=True)
        sys.exit(REFUSED_EXIT)


def _refuse_a_workspace_holding_the_store(workspace: Path, base: Path) -> None:
    """A program may touch anything in its workspace, so the run store must lie outside it."""
    from gg.telemetry.layout import holds_store, store_inside_workspace

    if holds_store(workspace, base):
        refusal = store_inside_workspace(workspace, base)
        click.echo(f"gg: {refusal}. Run gg from a folder outside the workspace.", err=True)
        sys.exit(REFUSED_EXIT)


def _open_store(base: Path, *, create: bool) -> RunStore:
    """The run store under `base`; a store that cannot be used ends the command with one line."""
    import sqlite3

    from gg.telemetry.layout import store_path
    from gg.telemetry.store import RunStore, RunStoreError
    from gg.wire import escaped

    try:
        return RunStore.at(base, create=create)
    except (RunStoreError, sqlite3.DatabaseError, OSError) as unusable:
        click.echo(f"gg: the run store {escaped(str(store_path(base)))} cannot be used: {unusable}", err=True)
        sys.exit(REFUSED_EXIT if create else 1)


def _model_override(reference: str | None) -> tuple[str | None, str | None]:
    from gg.providers.factory import parse_model_reference

    if reference is None:
        return None, None
    try:
        return parse_model_reference(reference)
    except ValueError as wrong:
        raise click.BadParameter(str(wrong), param_hint="--model") from None


@main.command()
@click.argument("config", type=click.Path(path_type=Path))
def check(config: Path) -> None:
    """Validate the capability set CONFIG, and the journals it replays, naming every defect."""
    from gg.config import check_report
    from gg.errors import ConfigError
    from gg.providers.book import JournalBook

    code, text = check_report(config)
    if code == 0:
        profiles, journals = _journals(config)
        for journal in journals:
            try:
                JournalBook.open(journal, profiles[0], profiles)
            except ConfigError as refusal:
                code, text = REFUSED_EXIT, str(refusal)
                break
    click.echo(text, err=code != 0)
    sys.exit(code)


def _journals(config: Path) -> tuple[list[str], list[Path]]:
    """The profiles and the replay journals of a capability set already found valid."""
    from gg.config import load_capability_set

    capability_set = load_capability_set(config)
    bindings = [agent.model for agent in capability_set.agents if agent.model is not None]
    journals = dict.fromkeys(binding.journal for binding in bindings if binding.journal is not None)
    return [agent.slug for agent in capability_set.agents], list(journals)


ARMS = ("javascript", "typescript", "python", "python-typed")


@main.command()
@click.option(
    "--arm", type=click.Choice(ARMS), default="javascript", show_default=True, help="Spell it for this arm."
)
@click.argument("module", required=False)
def docs(arm: str, module: str | None) -> None:
    """Print the SDK reference: every module, function, parameter, result and error, spelled for
    one arm. MODULE prints that module alone: one of gg's (`files`) or a host family given as
    `package.module:attribute`."""
    from gg.sdk.docs.reference import sdk_reference

    try:
        text = sdk_reference(arm, module)
    except LookupError as missing:
        click.echo(f"gg docs: {module}: {missing}", err=True)
        sys.exit(REFUSED_EXIT)
    click.echo(text, nl=False)


@main.command()
def schema() -> None:
    """Print the capability set's JSON Schema."""
    import json

    from gg.config import capability_set_schema

    click.echo(json.dumps(capability_set_schema(), indent=2))


@main.command()
@click.option(
    "--limit", default=20, show_default=True, type=click.IntRange(min=1), help="How many runs, newest first."
)
@JSON_OPTION
def runs(limit: int, as_json: bool) -> None:
    """List the runs kept under .gg/ in this folder: arm, model, turns, tokens, cost, errors."""
    from gg.telemetry.export import runs_document
    from gg.telemetry.layout import store_path

    if not store_path(Path.cwd()).exists():
        if as_json:
            _print_json(runs_document([]))
        else:
            click.echo("no runs yet: .gg/runs.db does not exist in this folder")
        return
    store = _open_store(Path.cwd(), create=False)
    listed = _read(lambda: store.listed(store.list_runs(limit)))
    if as_json:
        _print_json(runs_document(listed))
        return
    from rich.console import Console

    from gg.telemetry.show import render_runs

    render_runs(listed, Console(highlight=False))


@main.command()
@click.argument("run_ref", metavar="RUN", default="latest")
@click.option("--full", is_flag=True, help="Show the whole system prompt and every message.")
@JSON_OPTION
def show(run_ref: str, full: bool, as_json: bool) -> None:
    """Print the transcript of RUN (an id, a unique prefix of one, or `latest`)."""
    from gg.telemetry.layout import store_path
    from gg.telemetry.store import RunLookupError
    from gg.telemetry.transcript import fold_transcript

    if not store_path(Path.cwd()).exists():
        click.echo("gg show: no runs yet: .gg/runs.db does not exist in this folder", err=True)
        sys.exit(1)
    store = _open_store(Path.cwd(), create=False)
    try:
        row = _read(lambda: store.find_run(run_ref))
    except RunLookupError as missing:
        click.echo(f"gg show: {missing}", err=True)
        sys.exit(1)
    events = _read(lambda: store.events(row.id))
    if as_json:
        from gg.telemetry.export import show_document

        (listed,) = _read(lambda: store.listed([row]))
        _print_json(show_document(listed, fold_transcript(events, for_terminal=False)))
        return
    from rich.console import Console

    from gg.telemetry.show import render_transcript

    render_transcript(fold_transcript(events), Console(highlight=False), full=full)


def _print_json(document: dict[str, Any]) -> None:
    """One JSON document, every character outside ASCII escaped: nothing a run wrote can reach
    the terminal as a control sequence."""
    import json

    click.echo(json.dumps(document, indent=2, ensure_ascii=True))


def _read(query: Callable[[], T]) -> T:
    """A query of the run store; a damaged store ends the command with one line, exit 1."""
    import sqlite3

    try:
        return query()
    except sqlite3.DatabaseError as damaged:
        click.echo(f"gg: the run store .gg/runs.db cannot be read: {damaged}", err=True)
        sys.exit(1)


main.add_command(console)
main.add_command(study)
main.add_command(mcp)
