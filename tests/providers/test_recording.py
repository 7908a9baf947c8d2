"""Recording a real session as a replay journal, and replaying it to the same session.

The recorded run is the whole thing: `execute_run` builds the OpenAI-compatible client against
the loopback server and the real JavaScript arm against a copy of the spec-audit workspace.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from gg.agents.run import RunEnding, RunOptions, execute_run
from gg.config import parse_capability_set
from gg.outcome import ErrorType
from gg.providers.base import ModelError, Reply, ToolCall, Usage
from gg.providers.journal import load_journal, parse_journal
from gg.providers.recording import JournalRecorder
from gg.providers.replay import ReplayClient
from gg.providers.scripted import ScriptedClient
from gg.telemetry.emitter import CollectingSink, Telemetry
from gg.telemetry.events import Receipt

from .chat_server import Answer, ChatServer, Received, completion, error

EXAMPLE = Path(__file__).parents[2] / "examples" / "spec-audit"
LIBRARY = {"id": "program-library", "params": {"keep": 20, "idLength": 4}}


def test_a_session_recorded_from_the_loopback_server_replays_to_the_same_session(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.script(*_spec_audit_answers())
    journal = tmp_path / "recorded.jsonl"
    recorder = JournalRecorder.create(journal)
    binding = {"provider": "openai", "model": "gpt-4o", "baseUrl": chat_server.base_url, "pricing": "gpt-4o"}
    recorded = _run(tmp_path / "recorded", binding, RunOptions(session_id="run-rec1", recorder=recorder))

    assert recorded.result.final_text is not None and "3 of 8 specs" in recorded.result.final_text
    assert {r.json["prompt_cache_key"] for r in chat_server.received} == {"run-rec1"}
    lines = load_journal(journal)
    assert len(lines) == len(chat_server.received) - 1  # the rate-limited attempt was retried, not recorded
    assert [line.error.type if line.error else None for line in lines].count(
        ErrorType.MODEL_LENGTH_CAPPED
    ) == 1
    assert all(line.receipts is not None for line in lines if line.calls)
    assert all(line.cost_usd is not None and line.cost_usd > 0 for line in lines)  # as `pricing` says

    replay_binding = {"provider": "replay", "journal": str(journal)}
    replayed = _run(tmp_path / "replayed", replay_binding, RunOptions())
    assert _observed(replayed.events) == _observed(recorded.events)
    assert (replayed.result.status, replayed.result.final_text) == (
        recorded.result.status,
        recorded.result.final_text,
    )
    report = "workspace/report.md"
    assert (tmp_path / "replayed" / report).read_text() == (tmp_path / "recorded" / report).read_text()


def test_a_journal_keeps_cache_reads_reported_as_zero_apart_from_unreported_ones(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    recorder = JournalRecorder.create(path)
    script: list[Reply | ModelError] = [
        Reply("unreported", (), Usage(10, 2), "m"),
        Reply("reported", (), Usage(10, 2, cache_read_tokens=0), "m"),
    ]
    client = recorder.wrap(ScriptedClient(script, model_id="openai:m"), "root")
    client.complete(_request())
    client.complete(_request())
    recorder.close()
    unreported, reported = load_journal(path)
    assert (unreported.usage.cache_read_tokens, reported.usage.cache_read_tokens) == (None, 0)
    written = parse_journal('{"text": "a", "usage": {"inputTokens": 1, "cacheReadTokens": null}}', "j")
    assert written[0].usage == Usage(1, 0)


def test_the_recorder_keeps_calls_as_received_usage_cost_receipts_and_failures(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    recorder = JournalRecorder.create(path)
    script: list[Reply | ModelError] = [
        Reply(
            "first", (ToolCall("c1", "submit_program", {"program": "a"}),), Usage(10, 2), "m", cost_usd=0.5
        ),
        ModelError(ErrorType.MODEL_LENGTH_CAPPED, "cut off", usage=Usage(7, 100), cost_usd=0.25),
        Reply("", (ToolCall("c2", "submit_program", '{"program": "b('),), Usage(3, 4, 1, 2, 1), "m"),
    ]
    client = recorder.wrap(ScriptedClient(script, model_id="openai:m"), "root")
    client.complete(_request())
    recorder.write(_receipt_event("elsewhere", "zzzz"))
    recorder.write(_receipt_event("c1", "k3p9"))
    with pytest.raises(ModelError):
        client.complete(_request())
    client.complete(_request())
    recorder.close()

    first, failed, third = load_journal(path)
    assert (first.text, first.calls[0].arguments, first.usage, first.cost_usd) == (
        "first",
        {"program": "a"},
        Usage(10, 2),
        0.5,
    )
    assert first.receipts == ("k3p9",)
    assert failed.error is not None and (failed.error.type, failed.error.message) == (
        ErrorType.MODEL_LENGTH_CAPPED,
        "cut off",
    )
    assert (failed.usage, failed.cost_usd, failed.calls) == (Usage(7, 100), 0.25, ())
    assert third.calls[0].arguments == '{"program": "b('  # kept raw, as received
    assert (third.usage, third.cost_usd, third.receipts) == (Usage(3, 4, 1, 2, 1), None, None)
    assert path.read_text().startswith("// gg recording: 3 model call(s) answered by openai:m\n")
    assert {line.agent for line in (first, failed, third)} == {"root"}  # each line names its agent


def test_receipts_go_to_the_reply_of_the_agent_that_received_them(tmp_path: Path) -> None:
    recorder = JournalRecorder.create(tmp_path / "j.jsonl")
    calls = (ToolCall("call_1_1", "submit_program", {"program": "x"}),)
    root = recorder.wrap(ScriptedClient([Reply("", calls, Usage(1, 1), "m")]), "root")
    child = recorder.wrap(ScriptedClient([Reply("", calls, Usage(1, 1), "m")]), "root.1")
    root.complete(_request())
    child.complete(_request())
    recorder.write(_receipt_event("call_1_1", "from-root"))
    recorder.write(_receipt_event("call_1_1", "from-child", agent="root.1"))
    assert [(r.agent, r.receipts) for r in recorder.replies] == [
        ("root", ("from-root",)),
        ("root.1", ("from-child",)),
    ]


def test_receipts_go_to_the_latest_reply_even_when_a_provider_repeats_call_ids(tmp_path: Path) -> None:
    recorder = JournalRecorder.create(tmp_path / "j.jsonl")
    same = ToolCall("call_a", "submit_program", {"program": "x"})
    client = recorder.wrap(ScriptedClient([Reply("", (same, same), Usage(1, 1), "m")] * 2), "root")
    for turn in (1, 2):
        client.complete(_request())
        recorder.write(_receipt_event("call_a", f"t{turn}a"))
        recorder.write(_receipt_event("call_a", f"t{turn}b"))
    assert [r.receipts for r in recorder.replies] == [("t1a", "t1b"), ("t2a", "t2b")]


def test_a_replayed_failure_raises_its_model_error_with_its_usage_and_cost(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    line = {
        "error": {"type": "model_timeout", "message": "slow"},
        "usage": {"inputTokens": 5},
        "costUsd": 0.1,
    }
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(ModelError) as caught:
        ReplayClient.open(path).complete(_request())
    assert (caught.value.type, caught.value.message) == (ErrorType.MODEL_TIMEOUT, "slow")
    assert (caught.value.usage, caught.value.cost_usd) == (Usage(5, 0), 0.1)


def test_a_recorder_whose_file_cannot_be_written_fails_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    with pytest.raises(OSError):
        JournalRecorder.create(tmp_path / "taken" / "journal.jsonl")


class _Run:
    def __init__(self, result: RunEnding, events: list[dict[str, Any]]) -> None:
        self.result = result
        self.events = events


def _run(root: Path, binding: dict[str, Any], options: RunOptions) -> _Run:
    shutil.copytree(EXAMPLE / "workspace", root / "workspace")
    document = json.loads((EXAMPLE / "gg.json").read_text())
    agent = document["agents"][0]
    agent["model"] = binding
    agent["capabilities"] = [c for c in agent["capabilities"] if c["id"] != LIBRARY["id"]] + [LIBRARY]
    capability_set = parse_capability_set(document, root)
    sink = CollectingSink()
    sinks = [sink] if options.recorder is None else [sink, options.recorder]
    telemetry = Telemetry(options.session_id or "run-replay", sinks)
    result = execute_run(capability_set, telemetry, options)
    telemetry.close()
    return _Run(result, sink.wire())


def _observed(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a reader compares between two runs of one session: every program with its verdict,
    every receipt, every outcome and the end; call ids, times and the model's name aside."""
    observed: list[tuple[Any, ...]] = []
    for event in events:
        kind = event["type"]
        if kind == "receipt":
            observed.append((kind, event["turn"], event["body"], event.get("programId")))
        elif kind == "code_execution":
            observed.append((kind, event["turn"], event.get("source"), event["ok"], event.get("error")))
        elif kind == "turn_outcome":
            observed.append((kind, event["turn"], event["outcome"], event.get("errorType")))
        elif kind == "model_reply":
            observed.append((kind, event["turn"], event["text"], len(event["calls"]), event["usage"]))
        elif kind == "run_finished":
            observed.append((kind, event["status"], event["turns"], event.get("finalText")))
    return observed


def _spec_audit_answers() -> list[Answer | Any]:
    """The example's five replies as Chat Completions answers, with a rate limit (retried), a
    reply cut at its cap (an error turn), and a reply that asks the library for the first
    program by the id its receipt carried."""
    replies = [
        json.loads(line)
        for line in (EXAMPLE / "journal.jsonl").read_text().splitlines()
        if line.startswith("{")
    ]
    answers: list[Answer | Any] = [_answer(r, n) for n, r in enumerate(replies, 1)]
    answers.insert(1, error(429, "slow down", {"retry-after-ms": "5"}))
    answers.insert(
        3, completion(None, [("call_cut", "submit_program", '{"program": "impo')], finish_reason="length")
    )
    answers.insert(5, _asks_for_the_first_program)
    return answers


def _answer(reply: dict[str, Any], number: int) -> Answer | Any:
    """A journal reply as the model would send it: a `{{receipt R.C}}` placeholder becomes the id
    the conversation handed out for that call, read from the request."""
    if "{{receipt" in json.dumps(reply):
        return lambda received: _completion(_with_receipts(reply, received), number)
    return _completion(reply, number)


def _with_receipts(reply: dict[str, Any], received: Received) -> dict[str, Any]:
    receipts = {m["tool_call_id"]: m["content"] for m in received.json["messages"] if m["role"] == "tool"}
    text = re.sub(
        r"\{\{receipt (\d+)\.(\d+)\}\}", lambda m: receipts[f"call_{m[1]}_{m[2]}"], json.dumps(reply)
    )
    return json.loads(text)


def _completion(reply: dict[str, Any], number: int) -> Answer:
    calls = [
        (f"call_{number}_{n}", c["name"], json.dumps(c["arguments"])) for n, c in enumerate(reply["calls"], 1)
    ]
    usage = reply["usage"]
    wire_usage = {
        "prompt_tokens": usage["inputTokens"],
        "completion_tokens": usage["outputTokens"],
        "total_tokens": usage["inputTokens"] + usage["outputTokens"],
    }
    return completion(reply["text"], calls, usage=wire_usage)


def _asks_for_the_first_program(received: Received) -> Answer:
    first_receipt = next(m["content"] for m in received.json["messages"] if m["role"] == "tool")
    program = (
        'import { programs, views } from "gg";\n'
        f'const source = programs.get("{first_receipt}");\n'
        'views.openText("first-program", `${source.split("\\n").length} lines`);\n'
    )
    return completion(
        "Checking the first program.", [("call_lib", "submit_program", json.dumps({"program": program}))]
    )


def _request() -> Any:
    from .clients import a_request

    return a_request()


def _receipt_event(call_id: str, body: str, agent: str = "root") -> Any:
    from gg.telemetry.events import Event

    return Event(
        "run", agent, 1, "2026-01-01T00:00:00Z", Receipt(call_id=call_id, tool="submit_program", body=body)
    )
