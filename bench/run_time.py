"""Benchmark how far past `maxRuntimeSecs` a run stops, whatever was running when its time ran
out, beside a CPU-loading neighbour.

Run as `.venv/bin/python bench/run_time.py [--repeats N] [--ceiling SECS]`. Each sample is a
whole run (`execute_run`) whose one turn never ends on its own, under a run ceiling of `--ceiling`
seconds (default 3): a program spinning under its own 30 s `timeoutSecs`, on each arm, warmed
first (issue 21, item 18); a host function that hangs, plain and `async def`, given 600 s by its
family (item 4); a model request to a loopback server speaking the OpenAI wire that never answers
(item 25), after one cold run whose figures are printed apart (the provider's SDK is imported and
readied in that run's time, before its request is sent). The figures are the run's own, each less
the ceiling: when its turn was stopped (the `limit_exceeded` event's observed time) and when the
run ended (`run_finished.durationMs`, after the run closed what it started: its engines, its host
functions' loop). Prints p50/p95/max of each per case and the load average; every run must end
`timed_out`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ceilings import load, neighbour, percentiles

import gg
from gg.agents.run import RunOptions, World, execute_run
from gg.config import parse_capability_set
from gg.config.ceilings import Ceilings
from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry
from gg.telemetry.emitter import CollectingSink, Telemetry

SPIN = {
    "javascript": "while (true) {}\n",
    "typescript": "while (true) {}\n",
    "python": "while True:\n    pass\n",
    "python-typed": "while True:\n    pass\n",
}
HANG_SECS = 600.0
RELEASE = threading.Event()  # lets the hanging plain functions return once the bench is done

hanging = gg.family("hanging", doc="functions that never answer in time.", timeout_secs=HANG_SECS)


@hanging.operation
def wait() -> int:
    """Wait until the bench is done."""
    RELEASE.wait(HANG_SECS)
    return 1


@hanging.operation
async def wait_later() -> int:
    """Wait, on the run's loop, until cancelled."""
    await asyncio.sleep(HANG_SECS)
    return 1


class Scripted:
    """A model answering every request with one program."""

    model_id = "scripted:bench"

    def __init__(self, program: str) -> None:
        self.program = program

    def complete(self, request: gg.Request) -> gg.Reply:
        call = gg.ToolCall("call_1", "submit_program", {"program": self.program})
        return gg.Reply(text="", calls=(call,), usage=gg.Usage(10, 5), model=self.model_id)


class Silent(BaseHTTPRequestHandler):
    """An endpoint that reads the request and never answers."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        RELEASE.wait(HANG_SECS)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def document(folder: Path, ceiling: float, agent: dict[str, Any]) -> dict[str, Any]:
    (folder / "workspace").mkdir()
    (folder / "unused.jsonl").write_text("{}\n")
    agent.setdefault("model", {"provider": "replay", "journal": str(folder / "unused.jsonl")})
    return {"name": "run-time", "workspace": str(folder / "workspace"), "limits": {"maxRuntimeSecs": ceiling},
            "agents": [{"slug": "root", **agent}]}  # fmt: skip


Overshoot = tuple[float, float]  # (the turn stopped, the run ended), in ms past the ceiling


def overshoot_ms(ceiling: float, agent: dict[str, Any], world: World) -> Overshoot:
    """How far past the ceiling the run's turn was stopped and the run ended, by its own record."""
    with tempfile.TemporaryDirectory() as folder:
        capability_set = parse_capability_set(document(Path(folder), ceiling, agent), Path(folder))
        sink = CollectingSink()
        telemetry = Telemetry("bench-run-time", [sink])
        result = execute_run(capability_set, telemetry, RunOptions(), world)
        telemetry.close()
    assert result.status.value == "timed_out", f"the run ended {result.status.value}: {result.message}"
    events = sink.wire()
    (breach,) = [event for event in events if event["type"] == "limit_exceeded"]
    (finished,) = [event for event in events if event["type"] == "run_finished"]
    return (float(breach["observed"]) - ceiling) * 1000, float(finished["durationMs"]) - ceiling * 1000


def program_case(language: str, arm: Arm, ceiling: float) -> Callable[[], Overshoot]:
    params = {"language": language, "timeoutSecs": 30}
    agent = {"capabilities": [{"id": "responses-as-code", "params": params}]}
    return lambda: overshoot_ms(ceiling, dict(agent), World(client=Scripted(SPIN[language]), arm=arm))


def host_case(operation: str, ceiling: float) -> Callable[[], Overshoot]:
    program = f'import {{ hanging }} from "gg";\nhanging.{operation}();\n'
    capabilities = [
        {"id": "responses-as-code", "params": {"timeoutSecs": 30}},
        {"id": "host-functions", "params": {"families": ["hanging"]}},
    ]
    world = World(client=Scripted(program), families=(hanging,))
    return lambda: overshoot_ms(ceiling, {"capabilities": capabilities}, world)


def model_case(base_url: str, ceiling: float) -> Callable[[], Overshoot]:
    agent = {
        "model": {"provider": "openai", "model": "silent", "baseUrl": base_url},
        "capabilities": [{"id": "responses-as-code"}],
    }
    return lambda: overshoot_ms(ceiling, json.loads(json.dumps(agent)), World())


def bench(name: str, case: Callable[[], Overshoot], repeats: int) -> None:
    samples = [case() for _ in range(repeats)]
    print(f"{name:<24} turn stopped  {percentiles([s[0] for s in samples])}   (n={len(samples)})")
    print(f"{'':<24} run ended     {percentiles([s[1] for s in samples])}", flush=True)


def bench_programs(ceiling: float, repeats: int) -> None:
    """A spinning program on each arm, warmed first."""
    for language in SPIN:
        arm = build_arm(language, default_registry())
        try:
            assert arm.run("", lambda operation, args: None, Ceilings(30.0, 256 * 1024**2)).ok
            bench(f"program ({language})", program_case(language, arm, ceiling), repeats)
        finally:
            arm.close()


def bench_model(ceiling: float, repeats: int) -> None:
    """A request to a server that never answers: one cold run printed apart, then `repeats`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Silent)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    try:
        silent = model_case(f"http://{host!s}:{port}/v1", ceiling)
        stopped, ended = silent()
        print(f"{'model request (cold)':<24} turn stopped  {stopped:7.1f} ms   run ended {ended:7.1f} ms")
        bench("model request (silent)", silent, repeats)
    finally:
        server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--ceiling", type=float, default=3.0)
    options = parser.parse_args()
    print(f"load average before: {load()}   ceiling {options.ceiling:g} s")
    try:
        with neighbour():
            bench_programs(options.ceiling, options.repeats)
            bench("host function (plain)", host_case("wait", options.ceiling), options.repeats)
            bench("host function (async)", host_case("waitLater", options.ceiling), options.repeats)
            bench_model(options.ceiling, options.repeats)
            print(f"load average at the end (the neighbour spinning): {load()}")
    finally:
        RELEASE.set()


if __name__ == "__main__":
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")  # a loopback endpoint checks no key
    main()
