"""Benchmark one long replayed session: gg's own time per turn at turns 10, 100, 1,000 and 5,000,
on each arm.

Run as `.venv/bin/python bench/session.py [--turns N] [--arms A,B] [--repeats R]`. Each run is a
real `gg.run` of a generated journal of `--turns` replies (default 5,000) on one arm, recorded as
`gg run` records it (the run store and the NDJSON file, in a scratch folder), the program library
keeping every program and no ceiling armed. Every reply is one small program: it reads a file,
opens a view of what it read, every third turn opens a file view too, and every seventh fails on a
file that does not exist; the last ends the session. A turn runs from the previous turn's
`turn_outcome` to its own, as each event reaches `on_event` (after the record holds it). Two
figures per turn: the CPU time gg's own process spent on it (its guests are processes of their
own), the host's work, which the target judges; and its wall time less the guest's own time for
its program (`code_execution.durationMs` and `compileMs`), which on a loaded machine also holds
whatever the host waited for (a Worker booting, the scheduler). Prints, per arm and checkpoint,
the median over the ten turns ending there (over `--repeats` runs, the median of those medians),
the ratio of the last checkpoint to turn 10, the run's wall time and the load average. Target:
the last checkpoint within 1.2x of turn 10.

A long session's first turns and its last are minutes apart, and a shared machine's load changes
in between, which moves a turn's CPU time as much as anything gg does. So right after each long
session a fresh one of `CONTROL_TURNS` turns runs on the same arm, under the load the last
checkpoint met: turn 10 is the median of the turns ending at turn 10 of both sessions (the
long one's start and the fresh one's), and both are printed on their own line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import gg
from gg.telemetry.events import CodeExecution, Event, TurnOutcomeEvent

CHECKPOINTS = (10, 100, 1000, 5000)
SPAN = 10  # turns per checkpoint: the ten ending at it
TARGET = 1.2
ARMS = ("javascript", "typescript", "python", "python-typed")
NOTES = 5
CONTROL_TURNS = 2 * SPAN  # the fresh session after the long one: turn 10 is not its last


def program(language: str, turn: int) -> str:
    """Turn `turn`'s program on `language`: read, view, sometimes a file view, sometimes a failure."""
    note = f"notes/n{turn % NOTES}.md"
    target = f"notes/missing-{turn}.md" if turn % 7 == 0 else note
    opens_file = turn % 3 == 0
    if language.startswith("python"):
        lines = [
            "from gg import files, views",
            f'read = files.read_file("{target}")',
            f'views.open_text("turn-{turn}", read.contents[:120])',
            *([f'views.open_file("{note}", offset=1, limit=3)'] if opens_file else []),
        ]
    else:
        lines = [
            'import { files, views } from "gg";',
            f'const read = files.readFile("{target}");',
            f'views.openText("turn-{turn}", read.contents.slice(0, 120));',
            *([f'views.openFile("{note}", {{ offset: 1, limit: 3 }});'] if opens_file else []),
        ]
    return "\n".join(lines) + "\n"


def finish(language: str) -> str:
    if language.startswith("python"):
        return 'from gg import session\nsession.finish("done")\n'
    return 'import { session } from "gg";\nsession.finish("done");\n'


def prepare(folder: Path, language: str, turns: int) -> dict[str, Any]:
    """The workspace, the journal and the capability set of a `turns`-turn session."""
    notes = folder / "workspace" / "notes"
    notes.mkdir(parents=True)
    for n in range(NOTES):
        (notes / f"n{n}.md").write_text("".join(f"line {i} of note {n}\n" for i in range(40)))
    sources = [program(language, turn) for turn in range(1, turns)] + [finish(language)]
    lines = (
        {"text": f"Turn {turn}.", "calls": [{"name": "submit_program", "arguments": {"program": source}}],
         "usage": {"inputTokens": 1000 + turn, "outputTokens": 60}}
        for turn, source in enumerate(sources, 1)
    )  # fmt: skip
    journal = folder / "journal.jsonl"
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return {
        "name": f"bench-session-{language}",
        "workspace": str(folder / "workspace"),
        "agents": [
            {
                "slug": "root",
                "task": "Read the notes, one view a turn.",
                "model": {"provider": "replay", "journal": str(journal)},
                "capabilities": [
                    {"id": "responses-as-code", "params": {"language": language, "timeoutSecs": 30}},
                    {"id": "program-library", "params": {"keep": 0, "idLength": 4}},
                ],
            }
        ],
    }


class TurnClock:
    """Notes, as each event arrives, when each turn ended and the guest's time within it."""

    def __init__(self) -> None:
        self.ended: dict[int, float] = {}
        self.cpu: dict[int, float] = {}
        self.guest_ms: dict[int, float] = {}

    def __call__(self, event: Event) -> None:
        payload = event.payload
        if isinstance(payload, TurnOutcomeEvent):
            self.ended[event.turn] = time.perf_counter()
            self.cpu[event.turn] = time.process_time()
        elif isinstance(payload, CodeExecution):
            spent = payload.duration_ms + (payload.compile_ms or 0.0)
            self.guest_ms[event.turn] = self.guest_ms.get(event.turn, 0.0) + spent

    def harness_ms(self, turn: int) -> float:
        """Turn `turn`'s wall time, from the previous turn's end to its own, less its guest time."""
        wall = (self.ended[turn] - self.ended[turn - 1]) * 1000
        return wall - self.guest_ms.get(turn, 0.0)

    def cpu_ms(self, turn: int) -> float:
        """The CPU time gg's own process spent on turn `turn` (its guests are processes of their own)."""
        return (self.cpu[turn] - self.cpu[turn - 1]) * 1000


def run_session(language: str, turns: int) -> tuple[TurnClock, float]:
    """One whole session; its clock and its wall time in seconds."""
    clock = TurnClock()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        document = prepare(folder, language, turns)
        (folder / "store").mkdir()
        started = time.perf_counter()
        result = gg.run(document, journal=document["agents"][0]["model"]["journal"],
                        store=folder / "store", on_event=clock)  # fmt: skip
        wall = time.perf_counter() - started
    if result.status != "completed" or len(clock.ended) != turns:
        raise SystemExit(f"{language}: the run ended {result.status} after {len(clock.ended)} turns")
    return clock, wall


def span_of(at: int) -> range:
    """The `SPAN` turns ending at turn `at` (the first turn has no start)."""
    return range(max(2, at - SPAN + 1), at + 1)


def checkpoint_ms(clocks: list[TurnClock], at: int) -> tuple[float, float]:
    """The median host CPU time and wall time less guest time of the turns ending at turn `at`,
    pooled over the sessions of `clocks`."""
    cpu = statistics.median(clock.cpu_ms(turn) for clock in clocks for turn in span_of(at))
    return cpu, statistics.median(clock.harness_ms(turn) for clock in clocks for turn in span_of(at))


def bench_arm(language: str, turns: int, repeats: int) -> bool:
    """Print the arm's figures; whether its host CPU time met the target."""
    points = [at for at in CHECKPOINTS if at <= turns]
    samples: dict[int, list[tuple[float, float]]] = {at: [] for at in points}
    starts: list[tuple[float, float]] = []
    afters: list[tuple[float, float]] = []
    walls: list[float] = []
    for _ in range(repeats):
        clock, wall = run_session(language, turns)
        control, _ = run_session(language, CONTROL_TURNS)
        walls.append(wall)
        for at in points:
            samples[at].append(checkpoint_ms([clock, control] if at == points[0] else [clock], at))
        starts.append(checkpoint_ms([clock], points[0]))
        afters.append(checkpoint_ms([control], points[0]))
    met = True
    for column, name in enumerate(("host CPU", "wall - guest")):
        medians = {at: statistics.median(sample[column] for sample in samples[at]) for at in points}
        figures = "  ".join(f"turn {at:>5} {medians[at]:6.2f} ms" for at in points)
        ratio = medians[points[-1]] / medians[points[0]]
        verdict = "" if column else f" (target {TARGET}x: {'met' if ratio <= TARGET else 'missed'})"
        met = met and (column or ratio <= TARGET)
        label = language if column == 0 else ""
        print(f"{label:<13} {name:<13} {figures}   {ratio:5.2f}x{verdict}")
    start, after = (statistics.median(sample[0] for sample in pair) for pair in (starts, afters))
    print(f"{'':<13} turn {points[0]} host CPU: {start:.2f} ms at the long session's start, "
          f"{after:.2f} ms in a fresh session right after it (pooled above)")  # fmt: skip
    wall = statistics.median(walls)
    print(f"{'':<13} {turns} turns in {wall:.1f} s wall ({repeats} run(s), median)", flush=True)
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=max(CHECKPOINTS))
    parser.add_argument("--arms", default=",".join(ARMS), help="comma-separated, of " + ", ".join(ARMS))
    parser.add_argument("--repeats", type=int, default=1)
    options = parser.parse_args()
    arms = [arm.strip() for arm in options.arms.split(",") if arm.strip()]
    if options.turns < CHECKPOINTS[0] or not set(arms) <= set(ARMS):
        parser.error(f"--turns must be at least {CHECKPOINTS[0]}; --arms names of {', '.join(ARMS)}")
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"load average before: {load}   {options.turns} turns a session, gg's time per turn")
    met = [bench_arm(language, options.turns, options.repeats) for language in arms]
    last = max(at for at in CHECKPOINTS if at <= options.turns)
    print(f"turn {last} within {TARGET}x of turn {CHECKPOINTS[0]} (host CPU): "
          f"{'met' if all(met) else 'missed'} on {sum(met)} of {len(met)} arm(s)")  # fmt: skip
    print(f"load average at the end: {' '.join(f'{figure:.2f}' for figure in os.getloadavg())}")


if __name__ == "__main__":
    main()
