"""A whole study through the local pool: 2 configs × 3 tasks × 2 repeats, replayed journals, real
checks; its tables and its record asserted exactly."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.store import RunStore
from gg.study.compare import compare
from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.results import config_results
from gg.study.rows import CellRow
from gg.study.runner import FINISHED, StudyEnd, run_study
from gg.study.tables import results_table
from gg.telemetry.layout import events_path

from .studies import arms_study

pytestmark = pytest.mark.timeout(600)  # whole studies of real runs, on a shared machine

# wall time left out: it is the machine's, not the study's
EXPECTED_RESULTS = [
    {
        "config": "javascript",
        "cells": 6,
        "solved": 4,
        "notRun": 0,
        "rate": pytest.approx(4 / 6),
        "ciLow": pytest.approx(0.3000, abs=5e-5),
        "ciHigh": pytest.approx(0.9032, abs=5e-5),
        "turnsMedian": 2.0,
        "turnsP90": 3.0,
        "programsMedian": 2.0,
        "programsP90": 3.0,
        "errorTurns": 2,
        "tokensMedian": 4828.0,
        "tokensP90": 7700.0,
        "costMedian": None,
        "costP90": None,
        "costTotal": None,
        "errors.program_throw": 2,
        "errors.transpile_compile": 0,
    },
    {
        "config": "typescript",
        "cells": 6,
        "solved": 6,
        "notRun": 0,
        "rate": 1.0,
        "ciLow": pytest.approx(0.6097, abs=5e-5),
        "ciHigh": 1.0,
        "turnsMedian": 3.0,
        "turnsP90": 3.0,
        "programsMedian": 3.0,
        "programsP90": 3.0,
        "errorTurns": 6,
        "tokensMedian": 7636.0,
        "tokensP90": 7706.0,
        "costMedian": None,
        "costP90": None,
        "costTotal": None,
        "errors.program_throw": 0,
        "errors.transpile_compile": 6,
    },
]


@dataclass(frozen=True)
class Finished:
    base: Path
    end: StudyEnd
    cells: list[CellRow]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Finished:
    base = tmp_path_factory.mktemp("study-run")
    study = load_study(arms_study(base / "study"))
    end = run_study(study, LocalPool(2), base, QuietProgress())
    with Ledger(base / ".gg" / "runs.db") as ledger:
        return Finished(base, end, ledger.cells(end.study_id))


def test_every_cell_of_the_study_finishes_once(finished: Finished) -> None:
    assert (finished.end.status, finished.end.cells, finished.end.finished) == (FINISHED, 12, 12)
    keys = [(row.config, row.task, row.repeat) for row in finished.cells]
    assert len(keys) == len(set(keys)) == 12


def test_the_results_table_is_exactly_what_the_journals_and_checks_give(finished: Finished) -> None:
    records = results_table(config_results(finished.cells, ["javascript", "typescript"])).records()
    for record in records:  # wall time is the machine's, not the study's
        assert record.pop("wallMsMedian") is not None and record.pop("wallMsP90") is not None
    assert records == EXPECTED_RESULTS


def test_the_comparison_pairs_the_arms_task_by_task(finished: Finished) -> None:
    comparison = compare(
        finished.cells, "javascript", "typescript", ["word-count", "csv-total", "todo-report"]
    )
    word_count, csv_total, todo_report = comparison.tasks
    assert (csv_total.both, csv_total.only_a, csv_total.only_b) == (0, 0, 2)
    assert (word_count.both, todo_report.both) == (2, 2)
    total = comparison.total
    assert (total.pairs, total.both, total.only_a, total.only_b, total.neither) == (6, 4, 0, 2, 0)
    assert total.p_value == 0.5
    assert (total.turns.median, total.turns.mean) == (1.0, pytest.approx(4 / 6))


def test_a_failing_check_is_recorded_as_a_result(finished: Finished) -> None:
    failed = [row for row in finished.cells if row.config == "javascript" and row.task == "csv-total"]
    assert [(row.status, row.verdict, row.check_exit) for row in failed] == [("completed", "failed", 1)] * 2
    assert all("total.txt holds 'NaN', wanted 419.74" in row.check_detail for row in failed)


def test_every_run_lands_in_the_run_store_tagged_with_its_cell(finished: Finished) -> None:
    store = RunStore.at(finished.base, create=False)
    try:
        runs = {row.id: row for row in store.list_runs(100)}
        assert set(runs) == {row.run_id for row in finished.cells}
        for row in finished.cells:
            run = runs[row.run_id]
            assert run.status == "completed" and run.turns == row.turns
            assert run.name == f"arms-under-test {row.config}/{row.task}/{row.repeat}"
            assert run.config_path.endswith(f"study.toml#configs.{row.config}")
            assert run.language == row.config
            assert events_path(finished.base, row.run_id).exists()
            types = [event["type"] for event in store.events(row.run_id)]
            assert types[0] == "run_started" and types[-1] == "run_finished"
    finally:
        store.close()


def test_show_and_compare_print_their_tables_as_json_and_csv(
    finished: Finished, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(finished.base)
    runner = CliRunner()
    shown = runner.invoke(main, ["study", "show", "latest", "--json"])
    assert shown.exit_code == 0, shown.output
    assert [record["solved"] for record in json.loads(shown.output)["results"]] == [4, 6]
    compared = runner.invoke(
        main, ["study", "compare", finished.end.study_id, "javascript", "typescript", "--csv"]
    )
    assert compared.exit_code == 0, compared.output
    assert compared.output.splitlines()[-1].startswith("javascript,typescript,(all),6,4,0,2,0,0,0.5,,,1.0,")
    cells = runner.invoke(main, ["study", "show", "latest", "--cells", "--csv"])
    header, *rows = csv.reader(io.StringIO(cells.output))
    assert len(rows) == 12 and "checkDetail" in header
    listed = runner.invoke(main, ["study", "list"])
    assert finished.end.study_id in listed.output and "12/12" in listed.output
    unknown = runner.invoke(main, ["study", "compare", "latest", "javascript", "rust"])
    assert unknown.exit_code == 1 and "has no config `rust`" in unknown.output
    itself = runner.invoke(main, ["study", "compare", "latest", "javascript", "javascript"])
    assert itself.exit_code == 1
    assert itself.output == "gg study compare: compares two configs; `javascript` is named twice\n"


def test_list_prints_the_studies_as_json_and_csv(finished: Finished, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(finished.base)
    runner = CliRunner()
    as_json = runner.invoke(main, ["study", "list", "--json"])
    assert as_json.exit_code == 0, as_json.output
    document = json.loads(as_json.output)
    assert document["schema"] == 1
    (record,) = document["studies"]
    assert (record["id"], record["status"], record["finished"], record["cells"]) == (
        finished.end.study_id,
        "finished",
        12,
        12,
    )
    assert record["configs"] == "javascript, typescript"
    as_csv = runner.invoke(main, ["study", "list", "--csv"])
    assert as_csv.exit_code == 0, as_csv.output
    header, row = csv.reader(io.StringIO(as_csv.output))
    assert dict(zip(header, row, strict=True))["id"] == finished.end.study_id
    both = runner.invoke(main, ["study", "list", "--json", "--csv"])
    assert both.exit_code == 2 and "choose one" in both.output


def test_show_cells_prints_what_each_cells_check_said_and_its_json_the_whole_output(
    finished: Finished, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(finished.base)
    runner = CliRunner()
    shown = runner.invoke(main, ["study", "show", "latest", "--cells"])
    assert shown.exit_code == 0, shown.output
    for row in finished.cells:
        (line,) = [line for line in shown.output.splitlines() if row.run_id in line]
        said = "total.txt holds 'NaN', wanted 419.74" if row.verdict == "failed" else " is right"
        assert line.split("│")[-1].strip().endswith(said), line
    as_json = runner.invoke(main, ["study", "show", "latest", "--cells", "--json"])
    details = {record["runId"]: record["checkDetail"] for record in json.loads(as_json.output)["cells"]}
    assert details == {row.run_id: row.check_detail for row in finished.cells}


LIVE = """
[configs.live]
[[configs.live.agents]]
slug = "root"
model = { provider = "openai", model = "gpt-x", apiKeyEnv = "GG_STUDY_TEST_NO_SUCH_KEY" }
"""


def test_a_cell_whose_run_is_refused_is_recorded_as_refused(tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",), configs=LIVE, journals=False)
    end = run_study(load_study(file), LocalPool(1), tmp_path, QuietProgress())
    with Ledger(tmp_path / ".gg" / "runs.db") as ledger:
        (row,) = ledger.cells(end.study_id)
    assert end.status == FINISHED
    assert (row.config, row.status, row.verdict, row.solved, row.exit_code) == (
        "live",
        "refused",
        "not-run",
        False,
        2,
    )
    assert "GG_STUDY_TEST_NO_SUCH_KEY" in row.check_detail
