"""What a run records of a real wire's replies, through `gg run` and `gg show --json`: each call's
arguments parsed apart from the text the server sent, cache reads the server did not report as
unknown, the model the server says answered, the tool choice each request was sent on, and a
priced name asked away from its provider's endpoint left unpriced unless `pricing` says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.telemetry.layout import events_path
from gg.telemetry.ndjson import read_events

from .chat_server import ChatServer, completion, error, program_completion

EXAMPLE = Path(__file__).parents[2] / "examples" / "spec-audit"
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'
UNREPORTED = {"prompt_tokens": 900, "completion_tokens": 40, "total_tokens": 940}  # no cached_tokens
# The program's string holds a raw newline, as llama.cpp's grammar lets a model write one.
RAW_NEWLINE = '{"program": "import { files } from \\"gg\\";\nfiles.listDir();"}'
CALLS = [
    ("call_a", "submit_program", RAW_NEWLINE),
    ("call_b", "submit_program", "[1, 2]"),
    ("call_c", "submit_program", "null"),
    ("call_d", "submit_program", '{"program": "x('),
    ("call_e", "submit_program", '{"raw": "x"}'),
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(EXAMPLE, tmp_path / "spec-audit")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "spec-audit"


def _ask_at(project: Path, server: ChatServer, **model: str) -> None:
    document = json.loads((project / "gg.json").read_text())
    document["agents"][0]["model"] = {
        "provider": "openai",
        "model": "gemma",
        "baseUrl": server.base_url,
        **model,
    }
    (project / "gg.json").write_text(json.dumps(document))


def _run(project: Path, *options: str) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    env = {"OPENAI_API_KEY": None, "OPENAI_BASE_URL": None}
    result = CliRunner().invoke(main, ["run", str(project), *options], env=env)
    assert result.exit_code == 0, result.output
    shown = CliRunner().invoke(main, ["show", "latest", "--json"])
    assert shown.exit_code == 0, shown.output
    document = json.loads(shown.output)
    events = read_events(events_path(project.parent, document["run"]["id"]))
    return result.output, events, document


def _of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_each_call_keeps_its_parsed_arguments_apart_from_the_text_the_server_sent(
    project: Path, chat_server: ChatServer
) -> None:
    _ask_at(project, chat_server)
    chat_server.script(completion(None, CALLS, usage=UNREPORTED), program_completion(FINISH))
    _, events, shown = _run(project, "--model", "openai:gemma")

    expected = [
        ({"program": 'import { files } from "gg";\nfiles.listDir();'}, RAW_NEWLINE),
        ([1, 2], "[1, 2]"),
        (None, "null"),
        (None, '{"program": "x('),
        ({"raw": "x"}, '{"raw": "x"}'),
    ]
    first_reply = _of(events, "model_reply")[0]
    assert [(c["arguments"], c["rawArguments"]) for c in first_reply["calls"]] == expected
    first_turn = shown["turns"][0]
    assert [(c["arguments"], c["rawArguments"]) for c in first_turn["calls"]] == expected
    [program] = first_turn["programs"]
    assert (program["callId"], program["ok"]) == ("call_a", True)  # the raw newline did not refuse it


def test_a_reply_records_the_model_that_answered_and_unreported_cache_reads_as_unknown(
    project: Path, chat_server: ChatServer
) -> None:
    _ask_at(project, chat_server)
    reported = {**UNREPORTED, "prompt_tokens_details": {"cached_tokens": 0}}
    chat_server.script(
        completion(None, CALLS[:1], usage=UNREPORTED, model="gemma-3-270m-it"),
        completion(None, [("call_f", "submit_program", json.dumps({"program": FINISH}))], usage=reported),
    )
    _, events, shown = _run(project, "--model", "openai:gemma")

    replies = _of(events, "model_reply")
    assert [r["responseModel"] for r in replies] == ["gemma-3-270m-it", "test-model"]
    assert [r["usage"]["cacheReadTokens"] for r in replies] == [None, 0]
    assert [t["reply"]["cacheReadTokens"] for t in shown["turns"]] == [None, 0]
    assert shown["run"]["cacheReadTokens"] == 0
    [finished] = _of(events, "run_finished")
    assert finished["summary"]["usage"]["cacheReadTokens"] == 0


def test_no_reply_reporting_cache_reads_leaves_the_runs_total_unknown(
    project: Path, chat_server: ChatServer
) -> None:
    _ask_at(project, chat_server)
    chat_server.script(
        completion(None, CALLS[:1], usage=UNREPORTED),
        completion(None, [("call_f", "submit_program", json.dumps({"program": FINISH}))], usage=UNREPORTED),
    )
    _, events, shown = _run(project, "--model", "openai:gemma")
    assert shown["run"]["cacheReadTokens"] is None
    [finished] = _of(events, "run_finished")
    assert finished["summary"]["usage"]["cacheReadTokens"] is None


def test_each_request_records_the_tool_choice_it_was_sent_on(project: Path, chat_server: ChatServer) -> None:
    _ask_at(project, chat_server)
    chat_server.script(
        program_completion('import { files } from "gg";\nfiles.listDir();\n'),
        error(400, "`tool_choice` naming a function is not supported"),
        program_completion('import { files } from "gg";\nfiles.listDir();\n', "call_b"),
        program_completion(FINISH, "call_c"),
    )
    _, events, _ = _run(project, "--model", "openai:gemma")
    assert [r["toolChoice"] for r in _of(events, "model_request")] == ["pinned", "pinned", "auto"]
    sent = [r.json.get("tool_choice") for r in chat_server.received]
    pinned = {"type": "function", "function": {"name": "submit_program"}}
    assert sent == [pinned, pinned, "auto", "auto"]


def test_a_priced_name_at_a_loopback_server_costs_nothing_known_unless_pricing_says_so(
    project: Path, chat_server: ChatServer
) -> None:
    usage = {**UNREPORTED, "prompt_tokens_details": {"cached_tokens": 0}}
    _ask_at(project, chat_server)
    chat_server.script(
        completion(None, [("call_f", "submit_program", json.dumps({"program": FINISH}))], usage=usage)
    )
    output, events, shown = _run(project, "--model", "openai:gpt-4o", "-v")
    [reply] = _of(events, "model_reply")
    assert "costUsd" not in reply and shown["run"]["costUsd"] is None and shown["run"]["unpricedReplies"] == 1
    assert "unpriced (not the provider's own endpoint)" in output

    _ask_at(project, chat_server, model="gpt-4o", pricing="gpt-4o")
    chat_server.script(
        completion(None, [("call_f", "submit_program", json.dumps({"program": FINISH}))], usage=usage)
    )
    output, events, shown = _run(project, "-v")
    [reply] = _of(events, "model_reply")
    assert reply["costUsd"] == pytest.approx((900 * 2.5 + 40 * 10.0) / 1_000_000)
    assert "priced as openai:gpt-4o" in output
