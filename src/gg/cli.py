"""The `gg` command line: run, replay, check, schema, runs, show.

Exit codes of `gg run`: 0 the session ended; 1 gg's own defect or an unreachable model; 2 a
refused capability set; 3 a ceiling stopped the run.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import click
from rich.console import Console

from gg.config import capability_set_schema, check_report, load_capability_set
from gg.errors import ConfigError
from gg.providers.recording import JournalRecorder
from gg.run.run import RunOptions, execute_run
from gg.telemetry.clock import new_run_id
from gg.telemetry.display import LiveDisplay
from gg.telemetry.emitter import Sink, Telemetry
from gg.telemetry.ndjson import NdjsonSink
from gg.telemetry.show import render_runs, render_transcript
from gg.telemetry.store import RunLookupError, RunStore, RunStoreError
from gg.telemetry.transcript import fold_transcript

REFUSED_EXIT = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gg")
def main() -> None:
    """gg: agents that answer every turn with a whole program."""


@main.command()
@click.argument("config", type=click.Path(path_type=Path))
@click.option(
    "--workspace", type=click.Path(path_type=Path, file_okay=False), help="Run against this workspace."
)
@click.option(
    "--model", "model_ref", metavar="PROVIDER:MODEL", help="Answer with this model (e.g. openai:gpt-4o)."
)
@click.option("--journal", type=click.Path(path_type=Path, dir_okay=False), help="Replay this journal.")
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
    provider, model = _model_override(model_ref)
    options = RunOptions(
        config_path=config, workspace=workspace, provider=provider, model=model, journal=journal
    )
    _run_session(options, verbose=verbose, record=record)


@main.command()
@click.argument("journal", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("config", type=click.Path(path_type=Path))
@click.option(
    "--workspace", type=click.Path(path_type=Path, file_okay=False), help="Run against this workspace."
)
@click.option("-v", "--verbose", is_flag=True, help="Show the operator's info lines too.")
def replay(journal: Path, config: Path, workspace: Path | None, verbose: bool) -> None:
    """Replay the journal JOURNAL (e.g. one `gg run --record` wrote) against CONFIG, offline."""
    options = RunOptions(config_path=config, workspace=workspace, provider="replay", journal=journal)
    _run_session(options, verbose=verbose, record=None)


def _run_session(options: RunOptions, *, verbose: bool, record: Path | None) -> None:
    """Load the capability set, run it under telemetry (and a recorder), exit with its code."""
    try:
        capability_set = load_capability_set(options.config_path)
    except ConfigError as refusal:
        click.echo(str(refusal), err=True)
        sys.exit(REFUSED_EXIT)
    try:
        recorder = None if record is None else JournalRecorder.create(record)
    except OSError as unwritable:
        click.echo(f"gg: cannot record to {record}: {unwritable}", err=True)
        sys.exit(REFUSED_EXIT)
    base = Path.cwd()
    run_id = new_run_id()
    store = RunStore.at(base)
    display = LiveDisplay(
        Console(highlight=False), operator=Console(stderr=True, highlight=False), verbose=verbose
    )
    sinks: list[Sink] = [store, NdjsonSink(base, run_id), display]
    telemetry = Telemetry(run_id, [*sinks, *([recorder] if recorder else [])])
    options = dataclasses.replace(options, session_id=run_id, recorder=recorder)
    try:
        result = execute_run(capability_set, telemetry, options)
    finally:
        telemetry.close()
    sys.exit(result.exit_code)


def _model_override(reference: str | None) -> tuple[str | None, str | None]:
    if reference is None:
        return None, None
    provider, _, model = reference.partition(":")
    if not provider or (provider != "replay" and not model):
        raise click.BadParameter(f"expected PROVIDER:MODEL, got {reference!r}", param_hint="--model")
    return provider, model or None


@main.command()
@click.argument("config", type=click.Path(path_type=Path))
def check(config: Path) -> None:
    """Validate the capability set CONFIG and name every defect."""
    code, text = check_report(config)
    click.echo(text, err=code != 0)
    sys.exit(code)


@main.command()
def schema() -> None:
    """Print the capability set's JSON Schema."""
    click.echo(json.dumps(capability_set_schema(), indent=2))


@main.command()
@click.option("--limit", default=20, show_default=True, help="How many runs to list, newest first.")
def runs(limit: int) -> None:
    """List the runs kept under .gg/ in this folder."""
    try:
        store = RunStore.at(Path.cwd(), create=False)
    except RunStoreError:
        click.echo("no runs yet: .gg/runs.db does not exist in this folder")
        return
    render_runs(store.list_runs(limit), Console(highlight=False))


@main.command()
@click.argument("run_ref", metavar="RUN", default="latest")
@click.option("--full", is_flag=True, help="Show the whole system prompt and every message.")
def show(run_ref: str, full: bool) -> None:
    """Print the transcript of RUN (an id, a unique prefix of one, or `latest`)."""
    try:
        store = RunStore.at(Path.cwd(), create=False)
        row = store.find_run(run_ref)
    except (RunStoreError, RunLookupError) as missing:
        click.echo(f"gg show: {missing}", err=True)
        sys.exit(1)
    render_transcript(fold_transcript(store.events(row.id)), Console(highlight=False), full=full)
