"""Sessions on every arm that call a real MCP server (the fixture server, written with the `mcp`
SDK) over stdio and over streamable HTTP on loopback: typed arguments, a nested object, a
hyphenated tool, structured output and a tool without an output schema answer; the tool's own
error is caught as `other`; a bad argument fails `invalid-argument` naming it; a sleeping tool hits
the call's timeout (`limit-exceeded`); the server is killed mid-session and the session goes on;
and the recording replays the whole session offline, with no server at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import gg
from with_mcp.programs import PROGRAMS
from with_mcp.served import STDIO_SERVER, Acting, HttpServer, alive, config, kill_pid_in, logs, request_text

pytestmark = pytest.mark.timeout(300)

ARMS = ["javascript", "typescript", "python", "python-typed"]
PYTHON_ARMS = {"python", "python-typed"}


def _turn1_expectations(language: str) -> list[str]:
    del language
    return [
        "2.5",
        "note 7",
        "Oslo",
        "high",
        "abab",
        "other: Error executing tool refuse: refused: closed",  # the tool's own text
        "invalid-argument: `count` does not fit the tool's input schema: 9 is greater than the maximum of 5",
        'invalid-argument: `a` must be a whole number, got "two"',
        "limit-exceeded: the MCP server `fixture` did not answer within 2 s; the call was cancelled",
    ]


def _live_and_replayed(tmp_path: Path, language: str, server: dict[str, Any], between: Any) -> dict[str, Any]:
    live_dir, replay_dir = tmp_path / "live", tmp_path / "replay"
    live_dir.mkdir()
    replay_dir.mkdir()
    model = Acting(PROGRAMS[language], live_dir / "workspace", between)
    events: list[gg.Event] = []
    recording = tmp_path / "session.jsonl"
    live = gg.run(
        config(live_dir, language, server),
        model=model,
        store=tmp_path,
        record=recording,
        on_event=events.append,
    )
    gone = (
        {"command": ["/nonexistent/mcp-server"]} if "command" in server else {"url": "http://127.0.0.1:9/mcp"}
    )
    replayed_events: list[gg.Event] = []
    replayed = gg.run(
        config(replay_dir, language, gone), journal=recording, store=tmp_path, on_event=replayed_events.append
    )
    return {
        "live": live,
        "replayed": replayed,
        "model": model,
        "events": events,
        "replayed_events": replayed_events,
        "live_dir": live_dir,
        "replay_dir": replay_dir,
        "recording": recording,
    }


def _check_session(seen: dict[str, Any], language: str, second_call: str) -> None:
    live, replayed = seen["live"], seen["replayed"]
    assert live.status == "completed", live.message
    turn1 = (seen["live_dir"] / "workspace" / "turn1.txt").read_text()
    for expected in _turn1_expectations(language):
        assert expected in turn1, (expected, turn1)
    first, second = (seen["live_dir"] / "workspace" / "turn2.txt").read_text().splitlines()
    assert "io-error" in first and "the MCP server `fixture` is not answering" in first
    assert second_call in second, second
    assert "8" in (live.final_text or "")
    shape = (
        '{"text": str, "twice": str, "length": int}'
        if language in PYTHON_ARMS
        else "{ text: string; twice: string; length: number }"
    )
    docs = request_text(seen["model"].requests[1])
    assert f"the last one this run saw had the shape `{shape}`" in docs
    assert any(
        "MCP server `fixture` is not answering" in line and "opens it again" in line
        for line in logs(seen["events"])
    )
    calls = [e.to_wire() for e in seen["events"] if e.to_wire()["type"] in ("api_call", "api_result")]
    assert [c["operation"] for c in calls if c["type"] == "api_call"].count("fixture.add") == 5
    assert len([c for c in calls if c["type"] == "api_call"]) == len(
        [c for c in calls if c["type"] == "api_result"]
    )
    assert replayed.status == "completed", replayed.message
    assert replayed.final_text == live.final_text
    for name in ("turn1.txt", "turn2.txt"):
        assert (seen["replay_dir"] / "workspace" / name).read_text() == (
            seen["live_dir"] / "workspace" / name
        ).read_text()
    assert any("answered from the recording: fixture" in line for line in logs(seen["replayed_events"]))
    lines = [
        json.loads(line) for line in seen["recording"].read_text().splitlines() if not line.startswith("//")
    ]
    assert [line["hostFamily"]["name"] for line in lines if "hostFamily" in line] == ["fixture"]


@pytest.mark.parametrize("language", ARMS)
def test_a_session_calls_a_stdio_server_survives_its_death_and_replays_offline(
    tmp_path: Path, language: str
) -> None:
    def between(reply: int, workspace: Path) -> None:
        if reply == 2:
            kill_pid_in(workspace)

    seen = _live_and_replayed(tmp_path, language, STDIO_SERVER, between)
    _check_session(seen, language, "2")
    started_again = int((seen["live_dir"] / "workspace" / "pid.txt").read_text())
    assert not alive(started_again)  # the server gg started again was stopped with the run


@pytest.mark.parametrize("language", ARMS)
def test_a_session_calls_an_http_server_survives_its_death_and_replays_offline(
    tmp_path: Path, language: str
) -> None:
    server = HttpServer().start()

    def between(reply: int, workspace: Path) -> None:
        if reply == 2:
            server.kill()
        if reply == 3:
            server.start()

    try:
        seen = _live_and_replayed(tmp_path, language, {"url": server.url}, between)
    finally:
        server.kill()
    _check_session(seen, language, "io-error: the MCP server `fixture` is not answering")
