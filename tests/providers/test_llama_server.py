"""gg against a real llama.cpp server (`llama_server.py`): a three-turn session on the JavaScript
and on the Python arm, answered by Gemma 3 270M on loopback, runs to its end.

A model this small seldom writes a program that does the task, so the session ends at whichever
comes first: the model finishing (`completed`, exit 0) or the `maxTurns` 3 ceiling (`exhausted`,
exit 3); both are legitimate ends. What the test proves is that every turn got
past the wire: no `model_error`, every request answered by a recorded reply (three of them at
the ceiling), each reply's tokens recorded, and every request after the first carried the
assistant's tool-call turn back to the server, which answers HTTP 500 to that turn's
`"content": null`. The server reports no cache reads, so they are recorded as unknown; it is not
the provider's own endpoint, so no reply is priced.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import gg
from gg.telemetry.layout import events_path
from gg.telemetry.ndjson import read_events

from .llama_server import MODEL_ALIAS, LlamaServer, gemma_model, llama_server

SESSION_SECS = 1800  # three turns of a 270M model on two threads, on a loaded two-core machine
TURNS = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    folder = tmp_path_factory.mktemp("llama")
    with llama_server(gemma_model(folder), folder / "server.log") as running:
        yield running


def _session(tmp_path: Path, server: LlamaServer, language: str) -> dict[str, Any]:
    (tmp_path / "ws").mkdir()
    model = {
        "provider": "openai",
        "model": MODEL_ALIAS,
        "baseUrl": server.base_url,
        "maxOutputTokens": 192,
        "temperature": 0,
    }
    return {
        "name": f"llama-{language}",
        "workspace": str(tmp_path / "ws"),
        "limits": {"maxTurns": TURNS},
        "agents": [
            {
                "slug": "root",
                "task": "Write the word hello into the file hello.txt, then finish.",
                "model": model,
                "capabilities": [{"id": "responses-as-code", "params": {"language": language}}],
            }
        ],
    }


@pytest.mark.timeout(SESSION_SECS)
@pytest.mark.parametrize("language", ["javascript", "python"])
def test_a_session_against_llama_cpps_server_gets_past_the_wire_every_turn(
    tmp_path: Path, server: LlamaServer, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = gg.run(_session(tmp_path, server, language), store=tmp_path)
    events = read_events(events_path(tmp_path, result.run_id))
    requests = [e for e in events if e["type"] == "model_request"]
    replies = [e for e in events if e["type"] == "model_reply"]

    assert (result.status, result.exit_code) in {("completed", 0), ("exhausted", 3)}, result.message
    assert len(replies) == len(requests) == result.turns
    if result.status == "exhausted":
        assert len(replies) == TURNS
    for reply in replies:
        usage = reply["usage"]
        assert usage["inputTokens"] > 0 and usage["outputTokens"] > 0
        assert usage["cacheReadTokens"] is None and "costUsd" not in reply
        assert reply["responseModel"] == MODEL_ALIAS
    for request in requests[1:]:
        assert any(m["role"] == "assistant" and m.get("toolCalls") for m in request["messages"])
    assert [r["toolChoice"] for r in requests] == ["pinned"] * len(requests)  # it takes the pinned choice
