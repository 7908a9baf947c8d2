"""What each `gg study` command does; `cli.py` declares the command line and loads this module
only when a study command runs (so `gg --version` and the other commands never import it).

Exit codes of `gg study run`: 0 every cell finished (solved or not); 1 some cells were left
unfinished (their workers kept dying; resume to run them); 2 a refused study (a defect in the
study file or a capability set it makes, a resume that does not match, no Ray, a run store that
cannot be used, a host that cannot jail the study's check commands, a hosted model whose key is
not set); 130 interrupted by Ctrl-C, 143 by SIGTERM (resume with `--resume ID`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from functools import partial
from pathlib import Path
from typing import NoReturn

import click
from rich.console import Console

from gg.agents.interruption import said_of, signal_of, taken_stops
from gg.agents.models import Overrides, require_hosted_models
from gg.errors import ConfigError
from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT, SIGNAL_EXIT_BASE
from gg.sandbox.jail import JailUnavailable
from gg.study.check_jail import require_check_jail
from gg.study.cluster import RayCluster, RayUnavailable
from gg.study.compare import compare
from gg.study.delivery import Executor
from gg.study.display import render_cells, render_comparison, render_results, render_studies, render_study
from gg.study.ledger import Ledger
from gg.study.load import Study, load_study, study_schema
from gg.study.local import LocalPool
from gg.study.progress import TerminalProgress
from gg.study.results import config_results
from gg.study.rows import StudyLookupError, StudyRow
from gg.study.runner import FINISHED, Model, ResumeRefused, StudyEnd, StudyInterrupted, run_study
from gg.study.tables import Table, cells_table, comparison_table, in_study_order, results_table, studies_table
from gg.telemetry.location import StoreLocation
from gg.telemetry.postgres import StoreUnreachable
from gg.telemetry.store import RunStoreError
from gg.terminal.glyphs import plural

__all__ = ["check", "compare_configs", "list_studies", "run", "schema", "show"]

PIPE_WIDTH = 160


def run(
    study_path: Path,
    parallel: int | None,
    ray_address: str | None,
    model_ref: str | None,
    resume: str | None,
    where: StoreLocation,
) -> None:
    """`gg study run`: every unfinished cell, then the study's table."""
    model = _model(model_ref)
    loaded = _load(study_path)
    _refuse_a_template_holding_the_store(loaded, where.path.parent)
    _refuse_unjailable_checks(loaded)
    workers = parallel or os.cpu_count() or 1
    executor: Executor = (
        LocalPool(workers) if ray_address is None else RayCluster(ray_address, loaded.root, workers)
    )
    try:
        end = _run_study(loaded, executor, model, resume, where)
    except (ResumeRefused, StudyLookupError, RayUnavailable, ConfigError) as refusal:
        _fail(f"gg study run: {refusal}", REFUSED_EXIT)
    except StoreUnreachable as unreachable:
        _fail(f"gg study run: {unreachable}", INCOMPLETE_EXIT)
    except (RunStoreError, sqlite3.DatabaseError) as unusable:
        _fail(f"gg study run: the run store {where.shown} cannot be used: {unusable}", REFUSED_EXIT)
    except StudyInterrupted as interrupted:
        resume_with = f"gg study run {study_path} --resume {interrupted.study_id}"
        message = f"\n{interrupted}; its finished cells are kept. Resume with: {resume_with}"
        _fail(message, SIGNAL_EXIT_BASE + interrupted.signum)
    except KeyboardInterrupt as stop:  # before the study had begun: nothing to resume
        _fail(f"\n{said_of(stop)} before the study began", SIGNAL_EXIT_BASE + signal_of(stop))
    _report_end(end, study_path, where)


def _run_study(
    loaded: Study, executor: Executor, model: Model, resume: str | None, where: StoreLocation
) -> StudyEnd:
    """The study run from this folder, a SIGTERM stopping it as Ctrl-C does."""
    progress = TerminalProgress(_console(stderr=True))
    admit = partial(_admit, loaded)
    with taken_stops():
        return run_study(loaded, executor, Path.cwd(), progress, model, resume, where=where, admit=admit)


def _report_end(end: StudyEnd, study_path: Path, where: StoreLocation) -> None:
    console = _console()
    with Ledger(where) as ledger:
        row = ledger.find_study(end.study_id)
        cells = ledger.cells(end.study_id)
    render_study(row, len(cells), console)
    render_results(config_results(cells, row.config_names), console)
    for line in end.lost:
        console.print(f"unfinished: {line}")
    if end.status != FINISHED:
        console.print(f"resume with: gg study run {study_path} --resume {end.study_id}")
        sys.exit(INCOMPLETE_EXIT)
    console.print(f"study {end.study_id}: gg study show {end.study_id}, gg study compare {end.study_id} A B")


def list_studies(limit: int, as_json: bool, as_csv: bool, where: StoreLocation) -> None:
    """`gg study list`: the studies, newest first; a store not made yet lists none (exit 0, as
    `gg runs` lists no runs), naming where it looked."""
    if _missing(where):
        if not _emit(studies_table([]), as_json, as_csv):
            click.echo(f"no studies yet: {where.shown} does not exist")
        return
    with _ledger(where) as ledger:
        studies = [(row, len(ledger.cells(row.id))) for row in ledger.studies(limit)]
    if _emit(studies_table(studies), as_json, as_csv):
        return
    render_studies(studies, _console())


def show(ref: str, each_cell: bool, as_json: bool, as_csv: bool, where: StoreLocation) -> None:
    """`gg study show`: the results table, or one row per cell."""
    with _ledger(where) as ledger:
        row = _find(ledger, ref)
        cells = ledger.cells(row.id)
    results = config_results(cells, row.config_names)
    cells = in_study_order(cells, row.config_names, row.task_names)
    table = cells_table(cells) if each_cell else results_table(results)
    if _emit(table, as_json, as_csv):
        return
    console = _console()
    render_study(row, len(cells), console)
    if each_cell:
        render_cells(cells, console)
    else:
        render_results(results, console)


def compare_configs(ref: str, a: str, b: str, as_json: bool, as_csv: bool, where: StoreLocation) -> None:
    """`gg study compare`: configs A and B paired task by task."""
    with _ledger(where) as ledger:
        row = _find(ledger, ref)
        cells = ledger.cells(row.id)
    if a == b:
        _fail(f"gg study compare: compares two configs; `{a}` is named twice", 1)
    for name in (a, b):
        if name not in row.config_names:
            _fail(
                f"gg study compare: {row.id} has no config `{name}` (configs: {', '.join(row.config_names)})",
                1,
            )
    comparison = compare(cells, a, b, row.task_names)
    if _emit(comparison_table(comparison), as_json, as_csv):
        return
    console = _console()
    render_study(row, len(cells), console)
    render_comparison(comparison, console)


def check(study_path: Path) -> None:
    """`gg study check`: the study judged, every defect named, or one line saying what it holds."""
    loaded = _load(study_path)
    cells = len(loaded.configs) * len(loaded.tasks) * loaded.repeats
    click.echo(
        f'{study_path}: valid study "{loaded.name}": {plural(len(loaded.configs), "config")}'
        f" ({', '.join(loaded.configs)}) × {plural(len(loaded.tasks), 'task')}"
        f" × {plural(loaded.repeats, 'repeat')} = {plural(cells, 'cell')}"
    )


def schema() -> None:
    """`gg study schema`."""
    click.echo(json.dumps(study_schema(), indent=2))


def _load(path: Path) -> Study:
    try:
        return load_study(path)
    except ConfigError as refusal:
        _fail(str(refusal), REFUSED_EXIT)


def _refuse_a_template_holding_the_store(loaded: Study, folder: Path) -> None:
    """Every run's workspace is a copy of its template, so no template may hold the run store's
    folder (`folder`, with the runs' local copies)."""
    store = folder.resolve()
    for task in loaded.tasks:
        if store.is_relative_to(task.template.resolve()):
            _fail(
                f"gg study run: the workspace template of task {task.name} ({task.template}) holds"
                f" gg's run store ({store}); every run would get a copy of it."
                " Run gg from a folder outside it.",
                REFUSED_EXIT,
            )


def _admit(loaded: Study, model: Model) -> None:
    """Raises `ConfigError` for the first capability set of the study whose hosted model could not
    be built (a key not set): every cell would be refused, so the study is, before it begins."""
    overrides = Overrides(provider=model.provider, model=model.model)
    for (config, task), capability_set in loaded.sets.items():
        try:
            require_hosted_models(capability_set, overrides)
        except ConfigError as refusal:
            raise ConfigError(f"config {config} (task {task}): {refusal.source}", refusal.defects) from None


def _refuse_unjailable_checks(loaded: Study) -> None:
    """A check command runs only in a jail, so a host that cannot make one refuses the study."""
    tasks = [task.name for task in loaded.tasks if task.check.command is not None]
    if not tasks:
        return
    try:
        require_check_jail(loaded.root)
    except JailUnavailable as refusal:
        _fail(
            f"gg study run: the check commands of tasks {', '.join(tasks)} run only in a jail, and this host"
            f" cannot make one: {refusal.reason}",
            REFUSED_EXIT,
        )


def _console(stderr: bool = False) -> Console:
    """The terminal as it is; anything else (a pipe, a log) as wide as the tables need."""
    console = Console(stderr=stderr, highlight=False)
    return console if console.is_terminal else Console(stderr=stderr, highlight=False, width=PIPE_WIDTH)


def _model(reference: str | None) -> Model:
    if reference is None:
        return Model()
    provider, _, name = reference.partition(":")
    if provider == "replay":
        raise click.BadParameter(
            "a study replays each config's journals without --model", param_hint="--model"
        )
    if not provider or not name:
        raise click.BadParameter(f"expected PROVIDER:MODEL, got {reference!r}", param_hint="--model")
    return Model(provider, name)


def _missing(where: StoreLocation) -> bool:
    """Whether the store is an SQLite file not made yet."""
    return where.url is None and not where.path.exists()


def _ledger(where: StoreLocation) -> Ledger:
    if _missing(where):
        _fail(f"gg study: no studies yet: {where.shown} does not exist", 1)
    try:
        return Ledger(where)
    except StoreUnreachable as unreachable:
        _fail(f"gg study: {unreachable}", INCOMPLETE_EXIT)


def _find(ledger: Ledger, ref: str) -> StudyRow:
    try:
        return ledger.find_study(ref)
    except StudyLookupError as missing:
        _fail(f"gg study: {missing}", 1)


def _emit(table: Table, as_json: bool, as_csv: bool) -> bool:
    if as_json and as_csv:
        raise click.UsageError("--json and --csv each print the table; choose one")
    if as_json:
        click.echo(table.to_json())
    elif as_csv:
        click.echo(table.to_csv(), nl=False)
    return as_json or as_csv


def _fail(message: str, code: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)
