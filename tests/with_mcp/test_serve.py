"""`gg mcp serve` driven by the `mcp` SDK's own client, over stdio and over streamable HTTP on
loopback: it lists one `run_program_<arm>` tool per arm, runs programs on two arms, answers with
the library id, the views and the feedback a turn's next request shows, keeps the program library
across calls, stops a runaway at its ceiling, and records every call as a turn of a run in the
store."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_types import LATEST_PROTOCOL_VERSION

import gg
from with_mcp.served import GG, free_port, run_client

pytestmark = pytest.mark.timeout(300)

START_SECS = 120.0


def _config(tmp_path: Path) -> Path:
    (tmp_path / "workspace").mkdir()
    (tmp_path / "unused.jsonl").write_text("{}\n")
    library = {"id": "program-library", "params": {"keep": 0, "idLength": 4}}
    model = {"provider": "replay", "journal": "unused.jsonl"}

    def profile(slug: str, language: str) -> dict[str, Any]:
        code = {"id": "responses-as-code", "params": {"language": language, "timeoutSecs": 3}}
        return {"slug": slug, "model": model, "capabilities": [code, library]}

    document = {
        "name": "served",
        "workspace": "workspace",
        "limits": {"maxTurns": 10},
        "agents": [profile("root", "javascript"), profile("scribe", "python")],
    }
    (tmp_path / "gg.json").write_text(json.dumps(document))
    return tmp_path / "gg.json"


def _texts(result: Any) -> list[str]:
    return [block.text for block in result.content]


async def _session(client: Client) -> dict[str, Any]:
    listed = await client.list_tools()
    seen: dict[str, Any] = {"tools": {tool.name: tool.input_schema for tool in listed.tools}}
    js = (
        'import { files, views } from "gg";\n'
        'files.writeFile("a.txt", "hi");\n'
        'views.openText("greeting", "hello from js");\n'
    )
    seen["js"] = _texts(await client.call_tool("run_program_javascript", {"program": js}))
    first = 'import gg\ngg.views.open_text("sum", str(1 + 2))\n'
    seen["py1"] = _texts(await client.call_tool("run_program_python", {"program": first}))
    again = f'import gg\ngg.views.open_text("kept", gg.programs.get("{seen["py1"][0]}"))\n'
    seen["py2"] = _texts(await client.call_tool("run_program_python", {"program": again}))
    seen["runaway"] = _texts(await client.call_tool("run_program_javascript", {"program": "for (;;) {}\n"}))
    finish = 'import { session } from "gg";\nsession.finish("bye");\n'
    seen["finish"] = _texts(await client.call_tool("run_program_javascript", {"program": finish}))
    anew = 'import { views } from "gg";\nviews.openText("again", "a new session");\n'
    seen["anew"] = _texts(await client.call_tool("run_program_javascript", {"program": anew}))
    return seen


def _check(seen: dict[str, Any], tmp_path: Path) -> None:
    assert list(seen["tools"]) == ["run_program_javascript", "run_program_python"]
    for schema in seen["tools"].values():
        assert schema["required"] == ["program"] and schema["properties"]["program"]["type"] == "string"
    js_id, *js_rest = seen["js"]
    assert len(js_id) == 4 and any("hello from js" in text for text in js_rest), seen["js"]
    assert (tmp_path / "workspace" / "a.txt").read_text() == "hi"
    assert any("3" in text for text in seen["py1"][1:])
    assert any('gg.views.open_text("sum", str(1 + 2))' in text for text in seen["py2"][1:]), seen["py2"]
    assert (
        seen["runaway"][-1].startswith("Runtime error")
        and "stopped at its 3 s timeout" in seen["runaway"][-1]
    )


def _runs(tmp_path: Path) -> list[Any]:
    """Every run of the store, oldest first."""
    with gg.open_store(tmp_path) as store:
        return list(reversed(store.runs()))


def test_served_over_stdio_to_the_sdks_client(tmp_path: Path) -> None:
    config = _config(tmp_path)
    server = _stdio(config, tmp_path)

    async def drive() -> dict[str, Any]:
        async with Client(server) as client:
            return await _session(client)

    seen = run_client(drive)
    _check(seen, tmp_path)
    closed = "ended: the MCP client closed the session"
    shown = sorted(
        (run.language, run.status, run.message or run.final_text, run.turns) for run in _runs(tmp_path)
    )
    assert shown == [
        ("javascript", "completed", "bye", 3),  # three calls, the last of which ended the session
        ("javascript", "interrupted", closed, 2),  # one call, and the turn that waited for the next
        ("python", "interrupted", closed, 3),
    ]


def test_served_over_streamable_http_on_loopback(tmp_path: Path) -> None:
    config = _config(tmp_path)
    port = free_port()
    process = subprocess.Popen(
        [*GG, "mcp", "serve", str(config), "--http", "--port", str(port)],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        async def drive() -> dict[str, Any]:
            started = time.monotonic()
            while True:
                try:
                    async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                        return await _session(client)
                except Exception:
                    assert process.poll() is None and time.monotonic() - started < START_SECS
                    await asyncio.sleep(0.2)

        seen = run_client(drive)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 143
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    _check(seen, tmp_path)
    runs = [run for run in _runs(tmp_path) if run.status != "completed"]
    assert {(run.status, run.message) for run in runs} == {
        ("interrupted", "interrupted by SIGTERM (the process was told to stop)")
    }


def _stdio(config: Path, tmp_path: Path) -> StdioServerParameters:
    """`gg mcp serve config` over stdio, importing the gg under test (the SDK's default
    environment would drop PYTHONPATH)."""
    env = {**get_default_environment(), "PYTHONPATH": os.pathsep.join(sys.path)}
    return StdioServerParameters(
        command=GG[0], args=[*GG[1:], "mcp", "serve", str(config)], cwd=str(tmp_path), env=env
    )


def test_wrong_arguments_are_answered_with_one_plain_sentence(tmp_path: Path) -> None:
    server = _stdio(_config(tmp_path), tmp_path)

    async def drive() -> list[Any]:
        async with Client(server) as client:
            return [
                await client.call_tool("run_program_javascript", arguments)
                for arguments in ({"program": 1}, {"code": "1"}, {"program": ["1"]})
            ]

    answers = run_client(drive)
    assert all(answer.is_error for answer in answers)
    assert [_texts(answer) for answer in answers] == [
        ["`program` must be a string, the whole program, not a number"],
        ["`program` is missing: give the whole program as a string"],
        ["`program` must be a string, the whole program, not an array"],
    ]


def test_a_taken_port_ends_the_server_with_one_line_naming_it(tmp_path: Path) -> None:
    config = _config(tmp_path)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        ended = subprocess.run(
            [*GG, "mcp", "serve", str(config), "--http", "--port", str(port)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=START_SECS,
        )
    assert ended.returncode == 2, ended.stderr
    assert ended.stderr.splitlines() == [
        f"gg mcp serve: port {port} on 127.0.0.1 is taken (another program listens there); "
        "choose another with --port."
    ]
    assert ended.stdout == ""


def _empty_journal_behind(tmp_path: Path) -> Path:
    """The served set whose python profile replays an empty journal, kept behind the javascript root."""
    config = _config(tmp_path)
    document = json.loads(config.read_text())
    (tmp_path / "empty.jsonl").write_text("")
    document["agents"][1]["model"] = {"provider": "replay", "journal": "empty.jsonl"}
    config.write_text(json.dumps(document))
    return config


def test_a_refused_session_answers_its_call_with_an_error_saying_why(tmp_path: Path) -> None:
    server = _stdio(_empty_journal_behind(tmp_path), tmp_path)

    async def drive() -> Any:
        async with Client(server) as client:
            return await client.call_tool("run_program_javascript", {"program": "1"})

    answer = run_client(drive)
    assert answer.is_error
    (text,) = _texts(answer)
    assert (
        text.startswith("The session ended (refused): ")
        and "a replay journal needs at least one reply" in text
    )
    assert [run.status for run in _runs(tmp_path)] == ["refused"]


class _Wire:
    """`gg mcp serve` over stdio, spoken line by line as a client would."""

    def __init__(self, config: Path, tmp_path: Path) -> None:
        self.process = subprocess.Popen(
            [*GG, "mcp", "serve", str(config)],
            cwd=tmp_path,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.asked = 0

    def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.asked += 1
        self.tell({"jsonrpc": "2.0", "id": self.asked, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            answer = json.loads(self.process.stdout.readline())
            if answer.get("id") == self.asked:
                return answer

    def tell(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def opened(self) -> _Wire:
        client = {"name": "wire", "version": "0"}
        self.ask(
            "initialize",
            {"protocolVersion": LATEST_PROTOCOL_VERSION, "capabilities": {}, "clientInfo": client},
        )
        self.tell({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

    def call(self, arm: str, program: str) -> dict[str, Any]:
        return self.ask("tools/call", {"name": arm, "arguments": {"program": program}})["result"]

    def stop(self, how: str) -> int:
        """Stop the server as `how` says (`stdin`: the client closes it; else a signal's name)
        and wait for its exit code."""
        if how == "stdin":
            assert self.process.stdin is not None
            self.process.stdin.close()
        else:
            self.process.send_signal(getattr(signal, how))
        return self.process.wait(timeout=START_SECS)

    def __enter__(self) -> _Wire:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [
        ("SIGTERM", 143, "interrupted by SIGTERM (the process was told to stop)"),
        ("SIGINT", 130, "interrupted by the operator (Ctrl-C)"),
        ("stdin", 0, "ended: the MCP client closed the session"),
    ],
)
def test_the_server_stops_on_a_signal_or_closed_stdin_after_a_refused_session(
    tmp_path: Path, stop: str, code: int, said: str
) -> None:
    with _Wire(_empty_journal_behind(tmp_path), tmp_path).opened() as wire:
        assert wire.call("run_program_javascript", "1")["isError"] is True
        opened = wire.call("run_program_python", "x = 1\n")  # rooted at the python profile: no journal read
        assert opened["isError"] is False, opened
        assert wire.stop(stop) == code
    shown = [(run.language, run.status, run.message) for run in _runs(tmp_path)]
    assert shown[0][:2] == ("javascript", "refused") and shown[1:] == [("python", "interrupted", said)]


def test_a_served_root_names_no_model_since_the_client_is_its_model(tmp_path: Path) -> None:
    config = _config(tmp_path)
    document = json.loads(config.read_text())
    document["agents"] = [{key: value for key, value in document["agents"][0].items() if key != "model"}]
    config.write_text(json.dumps(document))
    server = _stdio(config, tmp_path)

    async def drive() -> list[str]:
        async with Client(server) as client:
            program = 'import { views } from "gg";\nviews.openText("hello", "served with no model");\n'
            return _texts(await client.call_tool("run_program_javascript", {"program": program}))

    answered = run_client(drive)
    assert any("served with no model" in text for text in answered), answered


def test_every_served_profile_names_no_model_each_arm_alike(tmp_path: Path) -> None:
    """The root and the profile served for the second arm both leave their model unnamed: the
    client is each one's model, and each arm answers."""
    config = _config(tmp_path)
    document = json.loads(config.read_text())
    document["agents"] = [
        {key: value for key, value in agent.items() if key != "model"} for agent in document["agents"]
    ]
    config.write_text(json.dumps(document))
    server = _stdio(config, tmp_path)

    async def drive() -> tuple[list[str], list[str]]:
        async with Client(server) as client:
            js = 'import { views } from "gg";\nviews.openText("hello", "javascript with no model");\n'
            py = 'import gg\ngg.views.open_text("hello", "python with no model")\n'
            return (
                _texts(await client.call_tool("run_program_javascript", {"program": js})),
                _texts(await client.call_tool("run_program_python", {"program": py})),
            )

    js_answer, py_answer = run_client(drive)
    assert any("javascript with no model" in text for text in js_answer), js_answer
    assert any("python with no model" in text for text in py_answer), py_answer


def test_a_profile_no_arm_serves_still_names_its_model_exit_2(tmp_path: Path) -> None:
    """A third profile on an arm another profile serves is answered by its own model: left
    unnamed, the server refuses to start, naming it (and only it)."""
    config = _config(tmp_path)
    document = json.loads(config.read_text())
    helper = {key: value for key, value in document["agents"][1].items() if key != "model"}
    document["agents"] = [
        {key: value for key, value in agent.items() if key != "model"} for agent in document["agents"]
    ] + [{**helper, "slug": "helper"}]
    config.write_text(json.dumps(document))
    done = subprocess.run(
        [*GG, "mcp", "serve", str(config)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "agents[2].model" in done.stderr and "is required" in done.stderr, done.stderr
    assert "agents[0].model" not in done.stderr and "agents[1].model" not in done.stderr


def test_a_served_profile_spawned_in_another_arms_session_is_refused_at_the_spawn(tmp_path: Path) -> None:
    """No model answers the profile served for the Python arm inside the JavaScript arm's session:
    its spawn there is `unavailable`, naming why, and the session goes on."""
    config = _config(tmp_path)
    document = json.loads(config.read_text())
    agents = [{key: value for key, value in agent.items() if key != "model"} for agent in document["agents"]]
    agents[0]["capabilities"].append({"id": "subagents", "params": {"maxDepth": 1}})
    agents[0]["subagents"] = [{"agent": "scribe", "scopes": ["subagent"]}]
    document["agents"] = agents
    config.write_text(json.dumps(document))
    server = _stdio(config, tmp_path)
    spawn = (
        'import { delegation, views } from "gg";\n'
        "try {\n"
        '  delegation.spawnSubagent({ agent: "scribe", prompt: "add" });\n'
        '  views.openText("spawned", "yes");\n'
        "} catch (e) {\n"
        '  views.openText("refused", `${e.code}: ${e.message}`);\n'
        "}\n"
    )

    async def drive() -> list[str]:
        async with Client(server) as client:
            return _texts(await client.call_tool("run_program_javascript", {"program": spawn}))

    answered = "\n".join(run_client(drive))
    assert "unavailable: `scribe`'s model cannot be used" in answered, answered
    assert "names no model" in answered
