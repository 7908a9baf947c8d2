"""The command line, as a user meets it: run, check, schema, runs, show, and their exit codes."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "spec-audit"


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the spec-audit example, with the working directory set beside it."""
    copy = tmp_path / "spec-audit"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    monkeypatch.chdir(tmp_path)
    return copy


def test_the_example_runs_to_its_end_and_is_kept_in_the_run_store(example: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(example)])
    assert result.exit_code == 0, result.output
    assert "3 of 8 specs lack a ## Rules section" in result.output
    assert "program_throw at program.js:11" in result.output
    assert (example / "workspace" / "report.md").read_text().count("- `specs/") == 3
    listing = runner.invoke(main, ["runs"])
    assert listing.exit_code == 0 and "spec-audit" in listing.output and "completed" in listing.output
    shown = runner.invoke(main, ["show", "latest"])
    assert shown.exit_code == 0
    assert "Runtime error" in shown.output and "report.md" in shown.output


def test_a_refused_capability_set_exits_2_naming_every_defect(example: Path) -> None:
    config = json.loads((example / "gg.json").read_text())
    config["limits"] = {"maxTurns": 0}
    config["agents"][0]["capabilities"][0]["params"]["maxMemoryBytes"] = 1.5
    (example / "gg.json").write_text(json.dumps(config))
    result = CliRunner().invoke(main, ["run", str(example)])
    assert result.exit_code == 2
    assert "limits.maxTurns" in result.output and "params.maxMemoryBytes" in result.output
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 2 and "2 defects" in checked.output


def test_an_unreadable_config_is_refused_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "gg.json").write_text("{ not json")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "gg.json")])
    assert result.exit_code == 2 and "Traceback" not in result.output and "JSON" in result.output


def test_check_accepts_the_example_and_schema_is_json(example: Path) -> None:
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 0 and "valid" in checked.output
    schema = json.loads(CliRunner().invoke(main, ["schema"]).output)
    assert "agents" in schema["properties"]


def test_an_unreachable_provider_ends_the_run_with_one_line_and_exit_1(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = json.loads((example / "gg.json").read_text())
    config["agents"][0]["model"] = {
        "provider": "openai",
        "model": "gpt-test",
        "baseUrl": f"http://127.0.0.1:{port}/v1",
    }
    (example / "gg.json").write_text(json.dumps(config))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(example)])
    assert result.exit_code == 1, result.output
    assert "model_error" in result.output and "Traceback" not in result.output
    assert "model_error" in runner.invoke(main, ["runs"]).output


def test_show_without_a_store_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["show", "latest"])
    assert result.exit_code == 1 and "gg show" in result.output
    assert "no runs yet" in CliRunner().invoke(main, ["runs"]).output


def test_a_workspace_that_does_not_exist_is_refused(example: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(example), "--workspace", str(example / "nope")])
    assert result.exit_code == 2 and "Traceback" not in result.output and "does not exist" in result.output


def test_a_workspace_holding_the_run_store_is_refused(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(example / "workspace")
    result = CliRunner().invoke(main, ["run", str(example)])
    assert result.exit_code == 2 and "run store" in result.output
    assert not (example / "workspace" / ".gg").exists()


def test_a_damaged_run_store_is_named_in_one_line(example: Path) -> None:
    (example.parent / ".gg").mkdir()
    (example.parent / ".gg" / "runs.db").write_bytes(b"this is not a database" * 100)
    runner = CliRunner()
    for command in (["runs"], ["show", "latest"], ["run", str(example)]):
        result = runner.invoke(main, command)
        assert result.exit_code in (1, 2) and "runs.db" in result.output, command
        assert "Traceback" not in result.output


def test_check_refuses_a_capability_set_whose_journal_is_broken(example: Path) -> None:
    (example / "journal.jsonl").write_text('{"calls": [{"name": "submit_program"}]}\nnot json\n')
    result = CliRunner().invoke(main, ["check", str(example)])
    assert result.exit_code == 2 and "line 2" in result.output


def test_a_journal_replays_a_hosted_model_config_without_its_key(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = json.loads((example / "gg.json").read_text())
    config["agents"][0]["model"] = {"provider": "anthropic", "model": "claude-x"}
    (example / "gg.json").write_text(json.dumps(config))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    journal = str(example / "journal.jsonl")
    result = CliRunner().invoke(main, ["run", str(example), "--journal", journal])
    assert result.exit_code == 0, result.output


def test_a_recording_inside_the_workspace_or_onto_a_dangling_link_is_refused(example: Path) -> None:
    inside = CliRunner().invoke(
        main, ["run", str(example), "--record", str(example / "workspace" / "r.jsonl")]
    )
    assert inside.exit_code == 2 and "inside the workspace" in inside.output
    assert not (example / "workspace" / "r.jsonl").exists()
    link = example.parent / "dangling.jsonl"
    link.symlink_to(example.parent / "missing-target.jsonl")
    dangling = CliRunner().invoke(main, ["run", str(example), "--record", str(link)])
    assert (
        dangling.exit_code == 2
        and link.is_symlink()
        and not (example.parent / "missing-target.jsonl").exists()
    )
