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
from .messages_server import program_message

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
    env = {variable: None, "OPENAI_BASE_URL": None, "ANTHROPIC_BASE_URL": None}
    result = CliRunner().invoke(main, ["run", str(project), "--model", reference], env=env)
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


def _profile_model(project: Path, model: dict[str, str]) -> None:
    document = json.loads((project / "gg.json").read_text())
    document["agents"][0]["model"] = model
    (project / "gg.json").write_text(json.dumps(document))


NO_SDK_VARIABLES = {"OPENAI_BASE_URL": None, "ANTHROPIC_BASE_URL": None}


def test_a_model_of_the_profiles_provider_keeps_its_endpoint_and_key_variable(
    project: Path, chat_server: ChatServer
) -> None:
    _profile_model(
        project,
        {"provider": "openai", "model": "local-a", "baseUrl": chat_server.base_url, "apiKeyEnv": "LOCAL_KEY"},
    )
    chat_server.script(program_completion(FINISH))
    env = {**NO_SDK_VARIABLES, "OPENAI_API_KEY": None, "LOCAL_KEY": "sk-local"}
    result = CliRunner().invoke(main, ["run", str(project), "--model", "openai:local-b", "-v"], env=env)
    assert result.exit_code == 0, result.output
    (request,) = chat_server.received
    assert request.json["model"] == "local-b" and request.headers["authorization"] == "Bearer sk-local"
    assert f"openai:local-b is asked at {chat_server.base_url} (the profile's baseUrl)" in result.output


def test_a_model_of_another_provider_keeps_none_of_the_profiles_endpoint(
    project: Path, chat_server: ChatServer
) -> None:
    _profile_model(
        project,
        {"provider": "openai", "model": "local-a", "baseUrl": chat_server.base_url, "apiKeyEnv": "LOCAL_KEY"},
    )
    env = {**NO_SDK_VARIABLES, "ANTHROPIC_API_KEY": None, "LOCAL_KEY": "sk-local"}
    result = CliRunner().invoke(main, ["run", str(project), "--model", "anthropic:claude-x"], env=env)
    assert result.exit_code == 2 and "ANTHROPIC_API_KEY" in result.output
    assert chat_server.received == []


def test_openai_base_url_is_honoured_when_the_profile_names_no_endpoint(
    project: Path, chat_server: ChatServer
) -> None:
    chat_server.script(program_completion(FINISH))
    env = {"OPENAI_BASE_URL": chat_server.base_url, "OPENAI_API_KEY": None}
    result = CliRunner().invoke(main, ["run", str(project), "--model", "openai:llama3", "-v"], env=env)
    assert result.exit_code == 0, result.output
    assert [r.json["model"] for r in chat_server.received] == ["llama3"]
    assert f"openai:llama3 is asked at {chat_server.base_url} (OPENAI_BASE_URL)" in result.output


def test_anthropic_base_url_is_honoured_when_the_profile_names_no_endpoint(
    project: Path, anthropic_server: ChatServer
) -> None:
    anthropic_server.script(program_message(FINISH))
    env = {"ANTHROPIC_BASE_URL": anthropic_server.base_url, "ANTHROPIC_API_KEY": None}
    arguments = ["run", str(project), "--model", "anthropic:claude-test-4", "-v"]
    result = CliRunner().invoke(main, arguments, env=env)
    assert result.exit_code == 0, result.output
    assert [r.json["model"] for r in anthropic_server.received] == ["claude-test-4"]
    assert f"is asked at {anthropic_server.base_url} (ANTHROPIC_BASE_URL)" in result.output


def test_the_profiles_endpoint_outranks_the_sdks_variable(project: Path, chat_server: ChatServer) -> None:
    _profile_model(project, {"provider": "openai", "model": "local-a", "baseUrl": chat_server.base_url})
    chat_server.script(program_completion(FINISH))
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": None}  # nothing listens there
    result = CliRunner().invoke(main, ["run", str(project)], env=env)
    assert result.exit_code == 0, result.output
    assert len(chat_server.received) == 1


def test_openrouter_reads_no_openai_variable(project: Path, chat_server: ChatServer) -> None:
    env = {"OPENAI_BASE_URL": chat_server.base_url, "OPENROUTER_API_KEY": None}
    result = CliRunner().invoke(main, ["run", str(project), "--model", "openrouter:vendor/model"], env=env)
    assert result.exit_code == 2 and "OPENROUTER_API_KEY" in result.output
    assert chat_server.received == []
