"""How long a real `gg run` takes to exit after Ctrl-C (SIGINT) or SIGTERM, for a tree of 1, 32 and
128 busy subagents of one root (`bench/agents.py` prints it).

Each subagent takes turn after turn, each program pausing 200 ms, under the default `maxParallel`
of 4 (a few run programs, the rest wait in line), then with every agent at once (`maxParallel` =
the number of agents: the turns past the arm's guests wait in line for one); the root waits for
them all in `waitForSubagents()`. Once every agent has opened and a subagent has begun its second turn, the
signal is sent to the `gg run` process; the figure is the wall time from the signal to the
process's exit. The row also states the exit code and how many agents' ends (`agent_finished`)
the record holds, of how many opened, and the run's recorded status.
Target: an exit within 1 s of the signal whatever the tree, every agent's end recorded.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

COUNTS = (1, 32, 128)
SIGNALS = (signal.SIGINT, signal.SIGTERM)
TURNS = 200
BUSY = (
    'import { views } from "gg";\nconst pause = new Int32Array(new SharedArrayBuffer(4));\n'
    'Atomics.wait(pause, 0, 0, 200);\nviews.openText("turn", "one more");\n'
)
POLL_SECS = 0.02
DEFAULT_PARALLEL = 4  # gg's default `maxParallel`
EXIT_SECS = 1.0
GG = Path(sys.executable).parent / "gg"


def _folder(base: Path, agents: int, parallel: int) -> Path:
    folder = base / "tree"
    (folder / "workspace").mkdir(parents=True)
    spawn = "".join(
        'delegation.spawnSubagent({ agent: "worker", prompt: "keep going" });\n' for _ in range(agents)
    )
    root = f'import {{ delegation }} from "gg";\n{spawn}delegation.waitForSubagents();\n'
    lines = [_line(root)] + [_line(BUSY, "worker") for _ in range(TURNS)]
    (folder / "journal.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    code = {"id": "responses-as-code", "params": {"timeoutSecs": 60}}
    model = {"provider": "replay", "journal": "journal.jsonl"}
    document = {
        "name": f"stop-{agents}",
        "workspace": "workspace",
        "limits": {"maxParallel": parallel},
        "agents": [
            {
                "slug": "root",
                "task": "Start the workers and wait.",
                "model": model,
                "capabilities": [code, {"id": "subagents", "params": {"maxDepth": 1}}],
                "subagents": [{"agent": "worker", "scopes": ["subagent"]}],
            },
            {"slug": "worker", "model": model, "capabilities": [code]},
        ],
    }
    (folder / "gg.json").write_text(json.dumps(document))
    return folder


def _line(program: str, profile: str | None = None) -> dict[str, Any]:
    call = {"name": "submit_program", "arguments": {"program": program}}
    return {"calls": [call]} if profile is None else {"profile": profile, "calls": [call]}


def _events(base: Path) -> list[dict[str, Any]]:
    found = sorted((base / ".gg" / "runs").glob("*/events.ndjson"))
    if not found:
        return []
    lines = found[0].read_text().splitlines()
    return [json.loads(line) for line in lines if line.endswith("}")]


def _busy(events: list[dict[str, Any]], agents: int) -> bool:
    """Every agent opened, and a subagent asked for its second turn."""
    opened = sum(1 for event in events if event["type"] == "agent_spawned")
    second = any(e["type"] == "model_request" and e["agentId"] != "root" and e["turn"] == 2 for e in events)
    return opened == agents + 1 and second


def _started(folder: Path, base: Path) -> subprocess.Popen[bytes]:
    """`gg run` on `folder`, taking Ctrl-C as a terminal's foreground job does: a bench run as a
    background job of a shell starts with SIGINT ignored, which `gg run` would inherit (and keep,
    as every program does), so here it inherits the default instead (a handler is reset at exec)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            [str(GG), "run", str(folder)], cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    finally:
        signal.signal(signal.SIGINT, before)


def measure(agents: int, signum: int, parallel: int = DEFAULT_PARALLEL) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        folder = _folder(base, agents, parallel)
        gg = _started(folder, base)
        try:
            deadline = time.monotonic() + 300
            while not _busy(_events(base), agents):
                if gg.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"{agents} agents: the run never got busy (exit {gg.returncode})")
                time.sleep(POLL_SECS)
            sent = time.perf_counter()
            gg.send_signal(signum)
            code = gg.wait(120)
            took = time.perf_counter() - sent
        finally:
            if gg.poll() is None:
                gg.kill()
        events = _events(base)
    (finished,) = [e for e in events if e["type"] == "run_finished"] or [{"status": "none"}]
    return {
        "agents": agents,
        "signal": signal.Signals(signum).name,
        "exit": took,
        "code": code,
        "opened": sum(1 for e in events if e["type"] == "agent_spawned"),
        "ended": len({e["agentId"] for e in events if e["type"] == "agent_finished"}),
        "status": finished["status"],
    }


def table(counts: tuple[int, ...] = COUNTS, parallel: int | None = DEFAULT_PARALLEL) -> None:
    """One row per count and signal; `parallel` None runs every agent at once."""
    bound = "maxParallel = agents" if parallel is None else f"maxParallel {parallel}"
    print(f"\nexit after a signal: subagents of one root, each pausing 200 ms a turn, {bound}")
    print(f"{'agents':>6} {'signal':>8} {'exit s':>7} {'code':>5} {'ended':>9}  {'status':<12} target")
    for agents in counts:
        for signum in SIGNALS:
            row = measure(agents, signum, parallel or agents)
            ended = f"{row['ended']}/{row['opened']}"
            met = row["exit"] <= EXIT_SECS and row["ended"] == row["opened"]
            print(
                f"{row['agents']:>6} {row['signal']:>8} {row['exit']:>7.2f} {row['code']:>5} {ended:>9}  "
                f"{row['status']:<12} {'met' if met else 'NOT met'}"
            )


if __name__ == "__main__":
    table(tuple(int(arg) for arg in sys.argv[1:]) or COUNTS)
