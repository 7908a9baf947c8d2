"""A cell moved to a worker's copy of the study: every path under the study folder follows."""

from __future__ import annotations

from pathlib import Path

from gg.study.cell import CellSpec, relocated
from gg.study.load import load_study
from gg.study.plan import CellKey

from .studies import arms_study


def _spec(tmp_path: Path) -> CellSpec:
    study = load_study(arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",)))
    task = study.task("csv-total")
    return CellSpec(
        study_id="study-x", key=CellKey("typescript", "csv-total", 1), run_id="run-x",
        capability_set=study.sets[("typescript", "csv-total")], config_label=study.labels["typescript"],
        template=task.template, check=task.check, root=study.root,
    )  # fmt: skip


def test_every_path_under_the_study_folder_moves_to_the_workers_copy(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    copy = tmp_path / "elsewhere"
    moved = relocated(spec, copy)
    assert moved.root == copy
    assert moved.template == copy / "tasks/csv-total/workspace"
    assert moved.capability_set.workspace == copy / "tasks/csv-total/workspace"
    assert moved.capability_set.root.model.journal == copy / "tasks/csv-total/typescript.jsonl"
    assert moved.capability_set.root.language == spec.capability_set.root.language
    assert (moved.key, moved.run_id, moved.check) == (spec.key, spec.run_id, spec.check)


def test_a_cell_already_where_its_study_is_stays_as_it_is(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    assert relocated(spec, spec.root) is spec
