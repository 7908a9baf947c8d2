"""The study driver: deals the cells to an executor and alone writes what comes back.

Rules:
- the executor is joined before anything is recorded: one that cannot be (no Ray cluster) leaves
  the store as it was;
- the study's model is admitted (`admit`: every hosted model's key set, say) before anything is
  recorded: a new study's before the store is opened, a resumed study's once adopted;
- a new study gets a fresh id; `resume` names an earlier one, which must have been written from the
  same study file (same fingerprint) and, when a model is given, with the same model;
- on resume, records cut short by a killed driver are deleted and their cells run again; every
  cell already finished is skipped, so nothing finished runs twice and nothing is lost;
- each cell gets a run id no other run in the store holds, and its run is named for the study and
  the cell (`study-arms typescript/csv-total/1`); its run's events go to the run store
  and its NDJSON file, then the cell's result is committed (`ledger.py`); a cell delivered a
  second time is dropped;
- a cell whose workers kept dying is left unfinished (a resume runs it again) and the study ends
  `incomplete`; a study whose every cell finished ends `finished`; Ctrl-C, or a SIGTERM where the
  caller lets it through as `Terminated`, ends it `interrupted`.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gg.agents.interruption import said_of, signal_of
from gg.record.runs import RUNNING
from gg.record.store import RunStore
from gg.study.cell import CellSpec
from gg.study.delivery import Delivered, Executor, Lost
from gg.study.figures import RunFigures, figures_of
from gg.study.ledger import Ledger
from gg.study.load import Study
from gg.study.plan import CellKey, plan_cells
from gg.study.progress import StudyProgress
from gg.study.rows import StudyRow
from gg.telemetry.clock import ID_RANDOM_BYTES, Clock, format_timestamp, new_run_id, utc_now
from gg.telemetry.layout import run_events_beside, runs_beside, store_path
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.ndjson import NdjsonSink

__all__ = [
    "FINISHED",
    "INCOMPLETE",
    "INTERRUPTED",
    "Model",
    "ResumeRefused",
    "StudyEnd",
    "StudyInterrupted",
    "new_study_id",
    "run_study",
]

FINISHED = "finished"
INCOMPLETE = "incomplete"
INTERRUPTED = "interrupted"
STUDY_ID_PREFIX = "study-"


class ResumeRefused(Exception):
    """The study named by `--resume` cannot be resumed with this study file or model."""


class StudyInterrupted(Exception):
    """Ctrl-C or a SIGTERM (`signum`) stopped the study; its finished cells stand and
    `--resume study_id` runs the rest."""

    def __init__(self, study_id: str, stop: KeyboardInterrupt) -> None:
        super().__init__(f"study {study_id} {said_of(stop)}")
        self.study_id = study_id
        self.signum = signal_of(stop)


@dataclass(frozen=True)
class StudyEnd:
    study_id: str
    status: str
    cells: int
    finished: int
    lost: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()


@dataclass(frozen=True)
class Model:
    """The `--model` override, applied to every config (None: each config's own)."""

    provider: str | None = None
    model: str | None = None

    @property
    def reference(self) -> str | None:
        if self.provider is None:
            return None
        return self.provider if self.model is None else f"{self.provider}:{self.model}"


def new_study_id(clock: Clock = utc_now, entropy: Callable[[int], str] = secrets.token_hex) -> str:
    """`study-20261201-084700-ab12cd34`: sortable by start time and unique across the machines
    that share a store, like a run id."""
    return f"{STUDY_ID_PREFIX}{clock():%Y%m%d-%H%M%S}-{entropy(ID_RANDOM_BYTES)}"


def run_study(
    study: Study,
    executor: Executor,
    base: Path,
    progress: StudyProgress,
    model: Model = Model(),
    resume: str | None = None,
    clock: Clock = utc_now,
    where: StoreLocation | None = None,
    admit: Callable[[Model], None] = lambda _model: None,
) -> StudyEnd:
    """Run every unfinished cell of `study`, recording in the store at `where` (under `base`,
    `<base>/.gg/runs.db`, when None); an executor that cannot be joined raises before the store
    is opened, and so is `admit`'s refusal of the study's model (a resumed study's model is
    admitted once adopted, before anything is written)."""
    if resume is None:
        admit(model)
    with executor.joined():
        store = RunStore(StoreLocation(Backend.SQLITE, store_path(base)) if where is None else where)
        ledger = Ledger(store.location)
        try:
            study_id, model, discarded = _open(
                study, ledger, _Launch(model, resume, executor.name, admit), clock
            )
            for run_id in discarded:
                shutil.rmtree(runs_beside(store.path) / run_id, ignore_errors=True)
            writer = _Writer(study_id, store, ledger, base, clock)
            return writer.run(study, executor, progress, model, discarded)
        finally:
            ledger.close()
            store.close()


@dataclass(frozen=True)
class _Launch:
    """What the command line asks of a study's start: its model, the study it resumes, the
    executor's name and the judge of the model."""

    model: Model
    resume: str | None
    executor: str
    admit: Callable[[Model], None]


def _open(study: Study, ledger: Ledger, launch: _Launch, clock: Clock) -> tuple[str, Model, tuple[str, ...]]:
    """The study's id and model, created or adopted, and the cut-short runs a resume discarded."""
    now = format_timestamp(clock())
    model, executor = launch.model, launch.executor
    if launch.resume is None:
        study_id = new_study_id(clock)
        ledger.begin_study(_row(study, study_id, model, executor, now))
        return study_id, model, ()
    row = ledger.find_study(launch.resume)
    if row.fingerprint != study.fingerprint:
        raise ResumeRefused(_changed(row, study))
    if model.reference is not None and model.reference != row.model:
        if row.model is None:
            raise ResumeRefused(f"{row.id} ran each config with its own model; resume it without --model")
        raise ResumeRefused(f"{row.id} ran with --model {row.model}; resume it with that model, or with none")
    if row.shown_status == RUNNING:
        raise ResumeRefused(f"{row.id} is still running (process {row.pid})")
    provider, _, name = (row.model or "").partition(":")
    adopted = Model(provider or None, name or None)
    launch.admit(adopted)
    ledger.adopt_study(row.id, executor, now)
    return row.id, adopted, tuple(ledger.discard_unfinished(row.id))


def _changed(row: StudyRow, study: Study) -> str:
    """Why a study file that is not the one `row` was run from cannot resume it."""
    if row.file == str(study.file):
        return (
            f"{study.file} has changed since {row.id} was run from it (or a file it names has);"
            " resume it with the study as it was"
        )
    return (
        f"{row.id} was run from a different study file ({row.file}) than {study.file};"
        " resume it with that one"
    )


def _row(study: Study, study_id: str, model: Model, executor: str, now: str) -> StudyRow:
    return StudyRow(
        id=study_id,
        name=study.name,
        file=str(study.file),
        fingerprint=study.fingerprint,
        configs=json.dumps(list(study.configs)),
        tasks=json.dumps([task.name for task in study.tasks]),
        repeats=study.repeats,
        seed=study.seed,
        cells=len(study.configs) * len(study.tasks) * study.repeats,
        model=model.reference,
        executor=executor,
        created_at=now,
        updated_at=now,
        status=RUNNING,
        pid=os.getpid(),
        host=socket.gethostname(),
    )


class _Writer:
    """The driver's half of a study: specs out, records in."""

    def __init__(self, study_id: str, store: RunStore, ledger: Ledger, base: Path, clock: Clock) -> None:
        self.study_id = study_id
        self.store = store
        self.ledger = ledger
        self.base = base
        self.clock = clock
        self._minted: set[str] = set()

    def run(
        self,
        study: Study,
        executor: Executor,
        progress: StudyProgress,
        model: Model,
        discarded: tuple[str, ...],
    ) -> StudyEnd:
        cells = plan_cells(study.configs, [task.name for task in study.tasks], study.repeats, study.seed)
        rows = self.ledger.cells(self.study_id)
        finished = {row.key for row in rows}
        specs = [self._spec(study, key, model) for key in cells if key not in finished]
        progress.start(self.study_id, len(cells), rows)
        lost: list[str] = []
        try:
            for delivery in executor.run(specs):
                if isinstance(delivery, Lost):
                    lost.append(f"{delivery.spec.key.label}: {delivery.reason}")
                    progress.lost(delivery.spec.key, delivery.reason)
                elif delivery.report.key not in finished:
                    figures = self._record(delivery)
                    finished.add(delivery.report.key)
                    if figures is not None:
                        progress.advance(delivery.report, figures)
        except KeyboardInterrupt as stop:
            self.ledger.end_study(self.study_id, INTERRUPTED, self._now())
            raise StudyInterrupted(self.study_id, stop) from None
        finally:
            progress.stop()
        status = FINISHED if len(finished) == len(cells) else INCOMPLETE
        self.ledger.end_study(self.study_id, status, self._now())
        return StudyEnd(self.study_id, status, len(cells), len(finished), tuple(lost), discarded)

    def _spec(self, study: Study, key: CellKey, model: Model) -> CellSpec:
        task = study.task(key.task)
        named = study.sets[(key.config, key.task)].model_copy(update={"name": f"{study.name} {key.label}"})
        return CellSpec(
            study_id=self.study_id,
            key=key,
            run_id=self._mint(),
            capability_set=named,
            config_label=study.labels[key.config],
            template=task.template,
            check=task.check,
            root=study.root,
            provider=model.provider,
            model=model.model,
        )

    def _mint(self) -> str:
        """A run id neither this study nor the store has seen."""
        while True:
            run_id = new_run_id(self.clock)
            if run_id not in self._minted and not self.ledger.run_id_taken(run_id):
                self._minted.add(run_id)
                return run_id

    def _record(self, delivery: Delivered) -> RunFigures | None:
        """The run's whole record, then the cell's result; None when the cell was already finished."""
        report = delivery.report
        self.ledger.begin_attempt(self.study_id, report.key, report.run_id, self._now())
        ndjson = NdjsonSink(self.base, report.run_id, path=run_events_beside(self.store.path, report.run_id))
        try:
            for event in report.events:
                self.store.write(event)
                ndjson.write(event)
        finally:
            ndjson.close()
        figures = figures_of(report.events)
        committed = self.ledger.finish_cell(self.study_id, report, figures, delivery.attempts, self._now())
        return figures if committed else None

    def _now(self) -> str:
        return format_timestamp(self.clock())
