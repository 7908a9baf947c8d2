"""The command line's model options: `--model`, `--record` and `gg replay`, through `gg` itself."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.providers.journal import load_journal

from .chat_server import ChatServer, program_completion

EXAMPLE = Path(__file__).parents[2] / "examples" / "spec-audit"
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(EXAMPLE, tmp_path / "spec-audit")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "spec-audit"


@pytest.mark.parametrize(
    ("reference", "variable"),
    [
        ("anthropic:claude-sonnet-5-5", "ANTHROPIC_API_KEY"),
        ("openai:gpt-5", "OPENAI_API_KEY"),
        ("openrouter:anthropic/claude-sonnet-5.5", "OPENROUTER_API_KEY"),
    ],
)
def test_a_hosted_model_without_its_key_is_refused_naming_the_variable(
    project: Path, reference: str, variable: str
) -> None:
    result = CliRunner().invoke(main, ["run", str(project), "--model", reference], env={variable: None})
    assert result.exit_code == 2
    assert variable in result.output


def test_a_recorded_run_replays_offline_with_gg_replay(project: Path, chat_server: ChatServer) -> None:
    document = json.loads((project / "gg.json").read_text())
    document["agents"][0]["model"] = {
        "provider": "openai",
        "model": "gpt-4o",
        "baseUrl": chat_server.base_url,
    }
    (project / "gg.json").write_text(json.dumps(document))
    chat_server.script(
        program_completion('import { files } from "gg";\nfiles.listDir();\n'), program_completion(FINISH)
    )
    journal = project.parent / "recorded.jsonl"

    recorded = CliRunner().invoke(main, ["run", str(project), "--record", str(journal)])
    assert recorded.exit_code == 0, recorded.output
    [first, second] = load_journal(journal)
    assert first.receipts is not None and second.receipts is not None  # the example keeps programs
    assert first.receipts != second.receipts
    keys = {r.json["prompt_cache_key"] for r in chat_server.received}
    assert len(keys) == 1 and keys.pop().startswith("run")

    replayed = CliRunner().invoke(main, ["replay", str(journal), str(project)])
    assert replayed.exit_code == 0, replayed.output
    assert "done" in replayed.output
    assert len(chat_server.received) == 2  # the replay asked no server


def test_a_record_path_that_cannot_be_written_refuses_the_run(project: Path) -> None:
    (project.parent / "taken").write_text("a file")
    result = CliRunner().invoke(
        main, ["run", str(project), "--record", str(project.parent / "taken" / "j.jsonl")]
    )
    assert result.exit_code == 2
    assert "cannot record to" in result.output


def test_a_recording_never_replaces_a_file_nor_creates_folders(project: Path) -> None:
    journal = project / "journal.jsonl"
    before = journal.read_text()
    onto_journal = CliRunner().invoke(main, ["run", str(project), "--record", str(journal)])
    assert onto_journal.exit_code == 2 and "already exists" in onto_journal.output
    assert journal.read_text() == before
    nowhere = project.parent / "no" / "such" / "dir" / "j.jsonl"
    refused = CliRunner().invoke(main, ["run", str(project), "--record", str(nowhere)])
    assert refused.exit_code == 2 and not (project.parent / "no").exists()
