"""What the MCP session tests share: the fixture server (`fixture_server.py`) started over stdio by
gg or over streamable HTTP on loopback by the test, a model scripted in Python that may act between
turns, and a capability set whose root calls the server."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import gg

FIXTURE = Path(__file__).parent / "fixture_server.py"
STDIO_SERVER = {"command": [sys.executable, str(FIXTURE)]}
GG = [sys.executable, "-c", "from gg.cli import main; main()"]  # the `gg` command, as run from here
START_WAIT_SECS = 60.0
T = TypeVar("T")


def run_client(session: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run an MCP client session to its end on an event loop of its own thread: the test's own
    thread may already hold a running loop (Playwright's, in a whole-suite run)."""
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, session()).result()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class HttpServer:
    """The fixture server over streamable HTTP on 127.0.0.1, started (and started again) by the test."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self) -> HttpServer:
        self.process = subprocess.Popen(
            [sys.executable, str(FIXTURE), "--http", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        ends = time.monotonic() + START_WAIT_SECS
        while time.monotonic() < ends:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                assert self.process.poll() is None, "the fixture server ended before it listened"
                time.sleep(0.05)
        raise AssertionError(f"the fixture server did not listen on {self.port} within {START_WAIT_SECS} s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


Between = Callable[[int, Path], None]  # what the test does before the model's reply N (from 1)


class Acting:
    """A model scripted in Python: reply N is the Nth program, and before it `between(N, workspace)`
    runs (a test kills a server there)."""

    model_id = "scripted:mcp"

    def __init__(self, programs: Sequence[str], workspace: Path, between: Between | None = None) -> None:
        self.programs = list(programs)
        self.workspace = workspace
        self.between = between
        self.requests: list[gg.Request] = []

    def complete(self, request: gg.Request) -> gg.Reply:
        self.requests.append(request)
        n = len(self.requests)
        if self.between is not None:
            self.between(n, self.workspace)
        call = gg.ToolCall(f"call_{n}", "submit_program", {"program": self.programs[n - 1]})
        return gg.Reply(text="", calls=(call,), usage=gg.Usage(10, 5), model=self.model_id)


def config(
    tmp_path: Path, language: str, server: dict[str, Any], timeout_secs: float = 2.0
) -> dict[str, Any]:
    """One root on `language` whose module `fixture` is `server`, in `tmp_path`."""
    (tmp_path / "workspace").mkdir(exist_ok=True)
    (tmp_path / "unused.jsonl").write_text("{}\n")
    return {
        "name": f"mcp-{language}",
        "workspace": str(tmp_path / "workspace"),
        "limits": {"maxTurns": 5},
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay", "journal": str(tmp_path / "unused.jsonl")},
                "capabilities": [
                    {"id": "responses-as-code", "params": {"language": language, "timeoutSecs": 60}},
                    {"id": "mcp", "params": {"servers": {"fixture": server}, "timeoutSecs": timeout_secs}},
                ],
            }
        ],
    }


def kill_pid_in(workspace: Path, name: str = "pid.txt") -> None:
    """Kill the process whose id the program wrote to `name` (the stdio server gg started)."""
    os.kill(int((workspace / name).read_text().strip()), signal.SIGKILL)


def logs(events: Sequence[gg.Event]) -> list[str]:
    return [str(e.to_wire().get("message")) for e in events if e.to_wire()["type"] == "log"]


def request_text(request: gg.Request) -> str:
    return "\n".join(message.content for message in request.messages)


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in {"Z", "X"}
