"""`gg study run` refuses, with one clear message and exit 2, what it cannot honour."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main

from .studies import arms_study


def test_the_command_line_refuses_a_resume_it_cannot_honour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    monkeypatch.chdir(tmp_path)
    unknown = CliRunner().invoke(main, ["study", "run", str(file), "--resume", "study-nothing"])
    assert unknown.exit_code == 2
    assert "no study matches `study-nothing`" in unknown.output


def test_a_refused_study_file_exits_2_naming_its_defects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    file.write_text(file.read_text().replace("repeats = 1", "repeats = 0"))
    monkeypatch.chdir(tmp_path)
    refused = CliRunner().invoke(main, ["study", "run", str(file)])
    assert refused.exit_code == 2
    assert "repeats: must be a whole number from 1 to 1000 (found 0)" in refused.output
    assert not (tmp_path / ".gg").exists()
    assert json.loads(CliRunner().invoke(main, ["study", "schema"]).output)["title"] == "gg study"


def test_check_says_a_count_of_one_in_the_singular(tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    checked = CliRunner().invoke(main, ["study", "check", str(file)])
    assert checked.exit_code == 0, checked.output
    assert " × 1 task × 1 repeat = " in checked.output


def test_a_run_store_that_cannot_be_used_refuses_the_study(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    (tmp_path / ".gg" / "runs").mkdir(parents=True)
    (tmp_path / ".gg" / "runs.db").write_text("not a database")
    monkeypatch.chdir(tmp_path)
    refused = CliRunner().invoke(main, ["study", "run", str(file)])
    assert refused.exit_code == 2
    assert (
        f"the run store {tmp_path / '.gg' / 'runs.db'} cannot be used: it is not an SQLite database, or one "
        "damaged (SQLite says: file is not a database); rebuild it from its runs' events files with: "
        "gg store rebuild" in refused.output
    )


def test_a_study_run_from_inside_a_workspace_template_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    template = tmp_path / "study" / "tasks" / "csv-total" / "workspace"
    monkeypatch.chdir(template)
    refused = CliRunner().invoke(main, ["study", "run", str(file)])
    assert refused.exit_code == 2
    assert (
        "the workspace template of task csv-total" in refused.output
        and "holds gg's run store" in refused.output
    )
    assert not (template / ".gg").exists()


def test_a_missing_store_lists_no_runs_and_no_studies_both_exit_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    missing = f"{tmp_path / '.gg' / 'runs.db'} does not exist"
    runs, studies = (CliRunner().invoke(main, command) for command in (["runs"], ["study", "list"]))
    assert (runs.exit_code, runs.output) == (0, f"no runs yet: {missing}\n")
    assert (studies.exit_code, studies.output) == (0, f"no studies yet: {missing}\n")
    as_json = CliRunner().invoke(main, ["study", "list", "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.output) == {"schema": 1, "studies": []}
    shown = CliRunner().invoke(main, ["study", "show", "latest"])  # a study named, none there: 1
    assert shown.exit_code == 1 and "no studies yet" in shown.output
    assert not (tmp_path / ".gg").exists()


def test_a_live_model_whose_key_is_not_set_refuses_the_study_before_anything_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    refused = CliRunner().invoke(main, ["study", "run", str(file), "--model", "anthropic:claude-sonnet-5-5"])
    assert refused.exit_code == 2, refused.output
    assert "config javascript (task csv-total): model: 1 defect" in refused.output
    assert "the anthropic API key is read from `ANTHROPIC_API_KEY`, which is not set" in refused.output
    assert not (tmp_path / ".gg").exists()


@pytest.mark.timeout(60)  # a FIFO read would wait forever for a writer
def test_study_check_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "study.toml")
    refused = CliRunner().invoke(main, ["study", "check", str(tmp_path / "study.toml")])
    assert refused.exit_code == 2
    assert "is not a regular file (a FIFO, a device or a socket); name a file" in refused.output
