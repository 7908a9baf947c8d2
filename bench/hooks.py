"""Benchmark what one hook run costs the operation it guards: a command hook (a fresh jail per
run, the payload written, the executable started, its answer read), a built-in and a Python hook.

Run as `.venv/bin/python bench/hooks.py [--repeats N]`. Each sample is one `pre-write` firing for
a write of 4 KiB through the run's hooks (`gg.loop.hooks.AgentHooks.fire`), timed by the
`hook_run` event's `durationMs`; the hook jail is opened once, as a run opens it at launch (its
opening time is printed apart). Prints p50/p95/max per kind and the load average.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from ceilings import load, percentiles

from gg.agents.shell import hidden_from_jails
from gg.config.hooks import HookDeclaration, HookEvent
from gg.loop.hooks import HookRunner, PythonHook
from gg.loop.stream import AgentStream
from gg.sandbox.hook_jail import HookJail
from gg.telemetry.emitter import CollectingSink, Telemetry

SCRIPT = '#!/bin/sh\ncat > /dev/null\necho \'{"action": "continue"}\'\n'
FIELDS = {"path": "/w/a.txt", "contents": "x" * 4096}


def timings(
    declared: list[HookDeclaration], python: list[PythonHook], jail: HookJail | None, n: int
) -> list[float]:
    sink = CollectingSink()
    telemetry = Telemetry("bench-hooks", [sink])
    stream = AgentStream(telemetry.emit, "root", "bench-hooks")
    hooks = HookRunner((), {"root": declared}, python, jail, time.monotonic).for_agent(stream, "root")
    for _ in range(n):
        hooks.fire(HookEvent.PRE_WRITE, FIELDS)
    telemetry.close()
    return [float(e["durationMs"]) for e in sink.wire() if e["type"] == "hook_run"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    repeats = parser.parse_args().repeats
    folder = Path(tempfile.mkdtemp(prefix="gg-bench-hooks-"))
    command = folder / "continue.sh"
    command.write_text(SCRIPT)
    command.chmod(0o755)
    started = time.monotonic()
    jail = HookJail([command], hidden_from_jails())
    print(f"hook jail opened in {(time.monotonic() - started) * 1000:.1f} ms   load {load()}")
    try:
        declared = HookDeclaration.model_validate({"event": "pre-write", "command": str(command)})
        print(f"command     {percentiles(timings([declared], [], jail, repeats))}")
        built_in = HookDeclaration.model_validate({"event": "pre-write", "builtIn": "refuse-empty-write"})
        print(f"built-in    {percentiles(timings([built_in], [], None, repeats))}")
        python = PythonHook(HookEvent.PRE_WRITE, lambda payload: None, "python")
        print(f"python      {percentiles(timings([], [python], None, repeats))}")
    finally:
        jail.close()
    print(f"load {load()}")


if __name__ == "__main__":
    main()
