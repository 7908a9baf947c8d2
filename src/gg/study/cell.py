"""One cell, run where a worker runs it: a whole run in a fresh copy of the task's workspace.

Rules:
- the run works in a fresh copy of the task's workspace template, made in the worker's workplace
  (`workplace.py`) and removed after the check; nothing of one cell's workspace reaches another's;
- the run is gg's own (`execute_run`) under a collecting telemetry sink: the worker writes no
  record, it hands its events back to the driver with the result and the check's verdict;
- a worker keeps its guests warm between cells (`ArmShelf`, one arm per language): a program
  still runs in a fresh guest scope, as every program of a run does;
- the check runs in the workplace's jail (`check_jail.py`); a run refused before its first turn
  is not checked (`not-run`), and neither is one whose check this worker cannot jail (`not-run`,
  naming why); anything else that goes wrong in the worker is reported as the cell's result,
  never raised;
- a cell carries the study's folder; a worker that holds the study elsewhere (a Ray worker's copy)
  moves every path under it to its own copy first (`relocated`).
"""

from __future__ import annotations

import dataclasses
import os
import socket
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from gg.agents.run import RunOptions, World, execute_run
from gg.config.model import CapabilitySet
from gg.loop.status import RunStatus
from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm
from gg.sandbox.jail import JailFailure, JailUnavailable
from gg.sdk.catalogue import default_registry
from gg.study.check import Check, CheckOutcome, CheckVerdict, run_check
from gg.study.plan import CellKey
from gg.study.workplace import Workplace
from gg.telemetry.emitter import CollectingSink, Telemetry
from gg.telemetry.events import Event

__all__ = ["ArmShelf", "CellReport", "CellSpec", "relocated", "run_cell"]


@dataclass(frozen=True)
class CellSpec:
    """Everything a worker needs to run one cell; `provider`/`model` override every config's."""

    study_id: str
    key: CellKey
    run_id: str
    capability_set: CapabilitySet
    config_label: str
    template: Path
    check: Check
    root: Path
    provider: str | None = None
    model: str | None = None


@dataclass(frozen=True)
class CellReport:
    """What a worker hands back: the run's events, its status, the check's verdict, who ran it."""

    key: CellKey
    run_id: str
    events: tuple[Event, ...]
    status: str
    check: CheckOutcome
    worker: str
    message: str | None = None


class ArmShelf:
    """A worker's warm arms, one per language, closed when the worker stops."""

    def __init__(self) -> None:
        self._arms: dict[str, Arm] = {}

    def arm(self, language: str) -> Arm:
        if language not in self._arms:
            self._arms[language] = build_arm(language, default_registry())
        return self._arms[language]

    def close(self) -> None:
        for arm in self._arms.values():
            arm.close()
        self._arms.clear()


def run_cell(spec: CellSpec, shelf: ArmShelf, workplace: Workplace) -> CellReport:
    """Run the cell's whole run and its check; never raises."""
    try:
        workspace = workplace.fresh_workspace(spec.template)
        return _run_in(spec, shelf, workplace, workspace)
    except Exception as defect:  # the worker's own failure: the cell's result, not the study's end
        return CellReport(
            spec.key,
            spec.run_id,
            (),
            RunStatus.INTERNAL_ERROR.value,
            CheckOutcome(CheckVerdict.NOT_RUN),
            worker_name(),
            message=f"the cell's worker failed: {defect!r}\n{traceback.format_exc()}",
        )
    finally:
        workplace.clear()


def _run_in(spec: CellSpec, shelf: ArmShelf, workplace: Workplace, workspace: Path) -> CellReport:
    sink = CollectingSink()
    telemetry = Telemetry(spec.run_id, [sink])
    options = RunOptions(
        config_path=Path(spec.config_label),
        workspace=workspace,
        provider=spec.provider,
        model=spec.model,
        session_id=spec.run_id,
    )
    try:
        world = World(arm=shelf.arm(spec.capability_set.entry(spec.capability_set.root).language.value))
        result = execute_run(spec.capability_set, telemetry, options, world)
    finally:
        telemetry.close()
    if result.status is RunStatus.REFUSED:
        check = CheckOutcome(CheckVerdict.NOT_RUN, detail=result.message or "")
    else:
        check = _checked(spec, workplace)
    return CellReport(
        spec.key, spec.run_id, tuple(sink.events), result.status.value, check, worker_name(), result.message
    )


def _checked(spec: CellSpec, workplace: Workplace) -> CheckOutcome:
    """The check's verdict, or `not-run` naming why this worker cannot jail it."""
    try:
        return run_check(spec.check, workplace.check_jail(spec.root))
    except (JailUnavailable, JailFailure) as refusal:
        reason = f"the check cannot run in a jail on {worker_name()}: {refusal.reason}"
        return CheckOutcome(CheckVerdict.NOT_RUN, detail=reason)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def relocated(spec: CellSpec, root: Path) -> CellSpec:
    """`spec` with every path under its study folder moved under `root`."""
    if spec.root == root:
        return spec
    return _rebase(spec, spec.root, root)


def _rebase(value: Any, old: Path, new: Path) -> Any:
    """`value` with each `Path` under `old` moved under `new`, through dataclasses, pydantic
    models, tuples and mappings."""
    if isinstance(value, Path):
        return new / value.relative_to(old) if value.is_relative_to(old) else value
    if isinstance(value, BaseModel):
        changes = {name: _rebase(getattr(value, name), old, new) for name in type(value).model_fields}
        return value.model_copy(update=changes)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _rebase(getattr(value, f.name), old, new) for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **fields)
    if isinstance(value, tuple):
        return tuple(_rebase(item, old, new) for item in value)  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, Mapping):
        return {key: _rebase(item, old, new) for key, item in value.items()}  # pyright: ignore
    return value
