"""Benchmark many agents taking turns at once: 1, 4, 16, 32 and 128 subagents of one root, each
taking 20 trivial turns, answered by a replayed journal, on the JavaScript arm; once with every
agent taking turns at once (`maxParallel` = the number of agents), once under the default
`maxParallel` of 4 (1 to 32). Then how long a real `gg run` of 1, 32 and 128 busy subagents takes
to exit after Ctrl-C (SIGINT) and after SIGTERM (`bench/stops.py`), under the default
`maxParallel` and with every agent at once.

Run as `.venv/bin/python bench/agents.py [counts...]` (`--stops` for the exit times alone). For
each count it prints the per-turn harness overhead at p50 and p95 and against one agent: the
time a turn holds one of its arm's guests, from its `model_request` to its `model_reply` (the
replay answers at once) and from its `context_breakdown` (it has its guest again after the reply)
to its `turn_outcome`, so all of it is gg and the guest; a turn waiting in line for a slot or a
guest is not computing, and those waits are left out. The p50 of each turn's whole time from
its request to its end, its wait in line included, is printed beside it (`in line`). Then the
run's wall time, the peak resident memory of gg with its guest processes (sampled
every 20 ms from `/proc`), how many guest processes the run started and how many were alive at
once. The machine's load average is printed before and after.
Targets (issue 27): 32 agents all at once within 3x of one agent's per-turn overhead; gg and its
guests at most 1.0 GiB; at most two guest processes a core on the arm; 128 agents all at once run
to their end; an exit within 1 s of the signal whatever the tree, every agent's end recorded.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import stops

from gg.agents.run import RunOptions, execute_run
from gg.config import parse_capability_set
from gg.config.catalogue import DEFAULT_MAX_PARALLEL
from gg.sandbox.process import descendants, resident
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import CodeExecution, Event, EventType

TURNS = 20
COUNTS = (1, 4, 16, 32, 128)
BOUNDED = (1, 4, 16, 32)  # the counts run under the default `maxParallel` too
AT_ONCE = 32  # the count the overhead target is read at
MOST = 128  # the count that must run to its end
TARGET_TIMES = 3.0
TARGET_MIB = 1024
GUESTS_A_CORE = 2
TRIVIAL = 'import { views } from "gg";\nviews.openText("turn", "one more");\n'
FINISH = 'import { session } from "gg";\nsession.finish("twenty turns");\n'
SAMPLE_SECS = 0.02


MARKS = {
    EventType.MODEL_REQUEST: "asked",
    EventType.MODEL_REPLY: "answered",
    EventType.CONTEXT_BREAKDOWN: "seated",  # emitted once the turn has a guest after its reply
    EventType.TURN_OUTCOME: "ended",
}


class TurnClock:
    """A sink noting, on the benchmark's clock, when each agent's turns ask their model, hear the
    reply, have their guest again after it, and end; and every program that failed."""

    def __init__(self) -> None:
        self.marks: dict[str, dict[tuple[str, int], float]] = {mark: {} for mark in MARKS.values()}
        self.failed: list[str] = []

    def write(self, event: Event) -> None:
        mark = MARKS.get(event.type)
        if mark is not None:
            self.marks[mark][(event.agent_id, event.turn)] = time.perf_counter()
        ran = event.payload
        if isinstance(ran, CodeExecution) and not ran.ok:
            self.failed.append(f"{event.agent_id} turn {event.turn}: {ran.error_type}: {ran.error}")

    def close(self) -> None:
        pass

    def turns(self) -> list[tuple[str, int]]:
        """Every subagent's turns that ended after their model's reply (the root only spawns and
        waits)."""
        return [key for key in self.marks["ended"] if key[0] != "root" and key in self.marks["seated"]]

    def held_ms(self) -> list[float]:
        """Each turn's harness overhead: the time it held a guest, its model's reply included
        and its waits in line for a guest left out."""
        m = self.marks
        return [
            (m["answered"][key] - m["asked"][key] + m["ended"][key] - m["seated"][key]) * 1000
            for key in self.turns()
        ]

    def latency_ms(self) -> list[float]:
        """Each turn from its model request to its end, its wait in line after the reply included."""
        return [(self.marks["ended"][key] - self.marks["asked"][key]) * 1000 for key in self.turns()]


class Memory:
    """Samples the resident memory of this process and of every process under it, and which of
    those are Deno guests."""

    def __init__(self) -> None:
        self.peak_all = 0
        self.guests: set[int] = set()
        self.peak_guests = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Memory:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.is_set():
            family = descendants(os.getpid())
            # a process is read again until it names Deno: a child just forked still shows gg's
            alive = {pid for pid in family if pid in self.guests or "deno" in _command(pid)}
            self.guests |= alive
            self.peak_guests = max(self.peak_guests, len(alive))
            self.peak_all = max(self.peak_all, sum(resident(pid) for pid in family))
            self._stop.wait(SAMPLE_SECS)


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def _capability_set(folder: Path, agents: int, parallel: int) -> Any:
    spawn = "".join(
        f'ids.push(delegation.spawnSubagent({{ agent: "worker", prompt: "take {TURNS} turns" }}).id);\n'
        for _ in range(agents)
    )
    root = f'import {{ delegation }} from "gg";\nconst ids = [];\n{spawn}delegation.waitForSubagents(ids);\n'
    lines = [_line(root), _line(FINISH)]
    lines += [_line(TRIVIAL, "worker") for _ in range(TURNS - 1)] + [_line(FINISH, "worker")]
    (folder / "journal.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (folder / "workspace").mkdir()
    code = {"id": "responses-as-code", "params": {"timeoutSecs": 60}}
    model = {"provider": "replay", "journal": "journal.jsonl"}
    document = {
        "name": f"bench-{agents}",
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
    return parse_capability_set(document, folder)


def _line(program: str, profile: str | None = None) -> dict[str, Any]:
    call = {"name": "submit_program", "arguments": {"program": program}}
    return {"calls": [call]} if profile is None else {"profile": profile, "calls": [call]}


def measure(agents: int, parallel: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as scratch:
        capability_set = _capability_set(Path(scratch), agents, parallel)
        clock = TurnClock()
        telemetry = Telemetry(f"bench-{agents}", [clock])
        started = time.perf_counter()
        with Memory() as memory:
            result = execute_run(capability_set, telemetry, RunOptions())
        wall = time.perf_counter() - started
        telemetry.close()
    turns = clock.held_ms()
    latency = clock.latency_ms()
    if result.status.value != "completed" or len(turns) != agents * TURNS or clock.failed:
        failed = "".join(f"\n  {failure}" for failure in clock.failed)
        raise SystemExit(
            f"{agents} agents: the run ended {result.status.value} after {len(turns)} turns{failed}"
        )
    return {
        "agents": agents,
        "turns": len(turns),
        "p50": statistics.median(turns),
        "p95": statistics.quantiles(turns, n=20)[18],
        "latency": statistics.median(latency),
        "wall": wall,
        "peak_all": memory.peak_all,
        "guests": len(memory.guests),
        "peak_guests": memory.peak_guests,
    }


COLUMNS = (
    ("agents", 6),
    ("turns", 6),
    ("p50 ms", 8),
    ("p95 ms", 8),
    ("p50 x1", 7),
    ("in line", 8),
    ("wall s", 7),
)
HEADER = (
    " ".join(f"{name:>{width}}" for name, width in COLUMNS)
    + f" {'RSS gg+guests':>14} {'guests':>7} {'at once':>8}"
)


def table(counts: tuple[int, ...], parallel: int | None) -> list[dict[str, Any]]:
    """One row per count; `parallel` None runs every agent at once."""
    bound = "maxParallel = agents" if parallel is None else f"maxParallel {parallel}"
    print(f"\n{TURNS} trivial turns per agent, {bound}, JavaScript arm, replay")
    print(HEADER)
    rows: list[dict[str, Any]] = []
    baseline: float | None = None
    for agents in counts:
        row = measure(agents, agents if parallel is None else parallel)
        baseline = baseline or row["p50"]
        row["x1"] = row["p50"] / baseline
        print(
            f"{row['agents']:>6} {row['turns']:>6} {row['p50']:>8.1f} {row['p95']:>8.1f} "
            f"{row['x1']:>6.2f}x {row['latency']:>8.1f} {row['wall']:>7.2f} "
            f"{row['peak_all'] / 2**20:>10.0f} MiB {row['guests']:>7} {row['peak_guests']:>8}",
            flush=True,
        )
        rows.append(row)
    return rows


def verdicts(rows: list[dict[str, Any]]) -> None:
    """The issue's targets, read off the rows of every agent at once."""
    cores = len(os.sched_getaffinity(0))
    guests = GUESTS_A_CORE * cores
    by = {row["agents"]: row for row in rows}
    print(f"\ntargets, every agent at once on {cores} cores:")
    if AT_ONCE in by:
        row = by[AT_ONCE]
        _verdict(f"{AT_ONCE} agents: p50 {row['x1']:.2f}x one agent's", row["x1"] <= TARGET_TIMES, "<= 3x")
    for row in rows:
        rss = row["peak_all"] / 2**20
        _verdict(f"{row['agents']} agents: gg+guests {rss:.0f} MiB", rss <= TARGET_MIB, "<= 1024 MiB")
        started = f"{row['agents']} agents: {row['guests']} guest processes"
        _verdict(started, row["guests"] <= guests, f"<= {guests}")
    if MOST in by:
        _verdict(f"{MOST} agents: {by[MOST]['turns']} turns, completed", True, "run to their end")


def _verdict(figure: str, met: bool, target: str) -> None:
    print(f"  {figure} ({target}): {'met' if met else 'NOT met'}")


def _load() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def main(args: list[str]) -> None:
    print(f"load average {_load()}")
    if "--stops" not in args:
        counts = tuple(int(arg) for arg in args) or COUNTS
        verdicts(table(counts, None))
        table(tuple(count for count in counts if count <= max(BOUNDED)), DEFAULT_MAX_PARALLEL)
        gg_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\npeak RSS of gg itself over every run: {gg_peak:.0f} MiB")
        print(f"load average {_load()}")
    stops.table()
    stops.table(parallel=None)
    print(f"\nload average {_load()}")


if __name__ == "__main__":
    main(sys.argv[1:])
