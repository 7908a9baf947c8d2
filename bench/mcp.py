"""Benchmark an MCP tool called from a program against the same call made by the `mcp` SDK's own
client: the per-call overhead gg adds (the guest's host call, the membrane, the schema check, the
call's record, the hop onto the run's event loop).

Run as `.venv/bin/python bench/mcp.py`. The server is the tests' fixture server, over stdio and
over streamable HTTP on loopback; the tool is `add(a, b)`. One session runs `ROUNDS` rounds; in
each, the model (in gg's own process) first times `CALLS` sequential `call_tool` calls of a warm
`mcp.Client` of its own to a second server of the same kind (the direct figure: the median call),
then answers with a program making no call and one making `CALLS` calls in a loop (the program
figure: the difference of their wall times, the run's `code_execution` durations, over `CALLS`).
Rounds alternate so both figures are taken under the same load; each round's ratio is printed,
with their median and best. Target: a call from a program costs at most 1.5x the direct call.
"""

from __future__ import annotations

import asyncio
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on the path, where its own name would stand for
# the `mcp` SDK: the SDK is imported with the folder left out.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != Path(__file__).resolve().parent]

from mcp import Client, StdioServerParameters  # noqa: E402

import gg  # noqa: E402
from gg.sdk.host.calling import FunctionLoop  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "with_mcp" / "fixture_server.py"
CALLS = 200
ROUNDS = 5
TARGET = 1.5
LOOPS = {
    "javascript": 'import {{ fixture }} from "gg";\nfor (let i = 0; i < {n}; i++) fixture.add(i, 0.5);\n',
    "python": "import gg\nfor i in range({n}):\n    gg.fixture.add(i, 0.5)\n",
}
FINISH = {
    "javascript": 'import { session } from "gg";\nsession.finish("done");\n',
    "python": 'import gg\ngg.session.finish("done")\n',
}


class Direct:
    """A warm `mcp.Client` held open by a task of its own on a loop of its own; `round` times
    `CALLS` calls made on that loop."""

    def __init__(self, server: Any) -> None:
        self.loop = FunctionLoop()
        self.server = server
        self.client, self.stop, self.holder = self.loop.run(self._open())

    async def _open(self) -> tuple[Client, asyncio.Event, asyncio.Task[None]]:
        ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        stop = asyncio.Event()
        holder = asyncio.create_task(self._hold(ready, stop))
        return await ready, stop, holder

    async def _hold(self, ready: asyncio.Future[Client], stop: asyncio.Event) -> None:
        async with Client(self.server) as client:
            await client.list_tools()
            for i in range(10):
                await client.call_tool("add", {"a": i, "b": 0.5})
            ready.set_result(client)
            await stop.wait()

    def round(self) -> float:
        return self.loop.run(self._timed())

    async def _timed(self) -> float:
        times = []
        for i in range(CALLS):
            started = time.perf_counter()
            await self.client.call_tool("add", {"a": i, "b": 0.5})
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    def close(self) -> None:
        self.loop.run(self._close())
        self.loop.close()

    async def _close(self) -> None:
        self.stop.set()
        await self.holder


class Rounds:
    """The session's model: before each round's first program, a direct round; then the program
    making no call, then the one making `CALLS`; then the ending."""

    model_id = "bench:mcp"

    def __init__(self, language: str, direct: Direct) -> None:
        none, many = LOOPS[language].format(n=0), LOOPS[language].format(n=CALLS)
        self.programs = [none, many] * ROUNDS + [FINISH[language]]
        self.direct = direct
        self.direct_medians: list[float] = []
        self.n = 0

    def complete(self, request: gg.Request) -> gg.Reply:
        if self.n % 2 == 0 and len(self.direct_medians) < ROUNDS:
            self.direct_medians.append(self.direct.round())
        self.n += 1
        call = gg.ToolCall(f"c{self.n}", "submit_program", {"program": self.programs[self.n - 1]})
        return gg.Reply(text="", calls=(call,), usage=gg.Usage(0, 0), model=self.model_id)


def measured(server: dict[str, Any], direct: Direct, language: str) -> list[tuple[float, float]]:
    """(direct median, program per call) of each round, in seconds."""
    model = Rounds(language, direct)
    durations: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "workspace").mkdir()
        (root / "j.jsonl").write_text("{}\n")
        code = {"id": "responses-as-code", "params": {"language": language, "timeoutSecs": 600}}
        mcp = {"id": "mcp", "params": {"servers": {"fixture": server}}}
        agent = {"slug": "root", "model": {"provider": "replay", "journal": str(root / "j.jsonl")}}
        agents = [{**agent, "capabilities": [code, mcp]}]
        config = {"name": "bench-mcp", "workspace": str(root / "workspace"), "agents": agents}
        result = gg.run(config, model=model, store=root, on_event=lambda e: _kept(e, durations))
        assert result.status == "completed", result.message
    per_call = [(durations[n + 1] - durations[n]) / 1000 / CALLS for n in range(0, 2 * ROUNDS, 2)]
    return list(zip(model.direct_medians, per_call, strict=True))


def _kept(event: gg.Event, durations: list[float]) -> None:
    wire = event.to_wire()
    if wire["type"] == "code_execution":
        durations.append(float(wire["durationMs"]))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _http_server(port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, str(FIXTURE), "--http", str(port)], stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the fixture server did not listen")


def report(transport: str, language: str, rounds: list[tuple[float, float]]) -> None:
    ratios = [program / direct for direct, program in rounds]
    shown = ", ".join(f"{direct * 1000:.2f}/{program * 1000:.2f} ms" for direct, program in rounds)
    median, best = statistics.median(ratios), min(ratios)
    verdict = "ok" if median <= TARGET else "over target"
    print(f"{transport}, {language} program: rounds (direct/program) {shown}")
    print(f"  ratio median {median:.2f}x, best {best:.2f}x ({verdict})")


def main() -> None:
    print(f"{CALLS} calls of fixture.add a round, {ROUNDS} rounds; target: at most {TARGET}x the direct call")
    stdio = {"command": [sys.executable, str(FIXTURE)]}
    direct = Direct(StdioServerParameters(command=sys.executable, args=[str(FIXTURE)]))
    try:
        for language in LOOPS:
            report("stdio", language, measured(stdio, direct, language))
    finally:
        direct.close()
    ports = _free_port(), _free_port()
    servers = [_http_server(port) for port in ports]
    try:
        direct = Direct(f"http://127.0.0.1:{ports[1]}/mcp")
        try:
            for language in LOOPS:
                report(
                    "streamable HTTP",
                    language,
                    measured({"url": f"http://127.0.0.1:{ports[0]}/mcp"}, direct, language),
                )
        finally:
            direct.close()
    finally:
        for server in servers:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
