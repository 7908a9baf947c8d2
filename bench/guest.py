"""Benchmark the JavaScript and TypeScript guests (Deno pool, warm) and the Python guests (Monty in a
worker process, warm): per-program latency, type-check time and host-call cost.

Run as `.venv/bin/python bench/guest.py`. Prints p50/p95 over RUNS programs for a trivial
program and a 4-host-call program (with an idle gap between programs, as between turns, and
back to back), and the time of 1000 host calls made by one program against a Python echo host;
then, for TypeScript, the first type check of a fresh checker, warm checks of changing programs,
and the whole per-program overhead (check + run). Targets: JS ≤ 6 ms p50, TS check ≤ 60 ms p50.
The same for Python (`python`, and `python-typed` with its `ty` check). Target: Python ≤ 2 ms p50.

Back to back comes two ways: in bursts of `BURST` programs with a turn's gap between bursts (a
hand-over chain, several submissions of one reply: target ≤ 8 ms p50), and `RUNS` in a row with
no gap at all, as a replay makes them: as one owner (one agent's replay, whose Worker is kept
warm and gives each program a fresh realm; target ≤ 10 ms p50), and with no owner (every program
gets a Worker booted for it, and a boot's CPU is spent whenever it comes); the mean is printed
too.

Then the cost of one host call on each arm, succeeding and failing (an `ApiError` the program
catches), from `CALLS` calls made by one program, in `CALL_ROUNDS` rounds of one succeeding and one
failing program, the order alternating round by round, so the two are measured under the same load;
each program starts after `CALL_GAP_SECS` of rest (as between turns), so a Worker booted for a later
program is neither in a call's time nor in its CPU (in-a-row programs measure that). Per call: the
median wall time and CPU time (gg's and the guest's processes) of each, and failing ÷ succeeding as
the median of the rounds' own ratios, wall and CPU. Targets: JavaScript ≤ 100 µs a call; failing
calls within 1.5× of succeeding ones on both arms, by wall and by CPU. The machine's load average is
printed with the figures: they are only comparable under like load.

Beside the JavaScript call, the floor under it (`floor`, `bench/floor.py`): the same round trip
between a bare Deno program and a bare Python loop over two named pipes, no gg code in it, measured
the same way (`CALL_ROUNDS` rounds of `CALLS`, each after `CALL_GAP_SECS`); then what gg's call
costs above that floor, wall and CPU. No host call between a Deno guest and a Python host costs
less than the floor on this machine.

Two more lines say where a failing JavaScript call's cost lies: the floor failing (the Python loop
raising and catching, the Deno program throwing and catching an `Error`) ÷ the floor succeeding,
what failing costs the engines and the machine with no gg code; and failing ÷ succeeding with gg
and its guest held to one CPU, so no call waits for a thread woken on the other CPU.

Name sections to run only those: `bench/guest.py row calls` (`javascript`, `typescript`, `python`,
`calls`, `floor`, the floor alone, and `row`, the in-a-row part of `javascript`). What a warm Worker
keeps over many programs is `bench/warm_memory.py`'s.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from floor import cpu_secs, floor

from gg.config.ceilings import Ceilings
from gg.errors import ErrorCode, OperationError
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.arms.python import PythonArm
from gg.sandbox.arms.typescript import TypeScriptArm
from gg.sandbox.deno.declarations import declarations
from gg.sandbox.deno.tscheck import TypeChecker
from gg.sandbox.execution import Arm
from gg.sdk.registry import Always, Operation, Param, ParamType, Registry

RUNS = 60
CALLS = 1000
CALL_ROUNDS = 9  # each a succeeding and a failing program, back to back
ROW_TARGET_MS = 10.0
CALL_TARGET_US = 100.0
FAILING_RATIO = 1.5
IDLE_SECS = 0.15
BURST = 4  # programs of one hand-over chain
BURST_GAP_SECS = 0.5  # between two turns' bursts: shorter than any model reply
CALL_GAP_SECS = 1.0  # before each host-call program: the guest has booted its spares again
CEILINGS = Ceilings(timeout_secs=10.0, max_memory_bytes=256 * 1024 * 1024)
TRIVIAL = 'import { views } from "gg";\nviews.openText("alive", "yes");\n'
FOUR_CALLS = (
    'import { files, views } from "gg";\n'
    'const a = files.echo("one");\nconst b = files.echo("two");\n'
    'const c = files.echo("three");\nviews.openText("sum", [a, b, c].join(","));\n'
)
THOUSAND = 'import { files } from "gg";\nfor (let i = 0; i < 1000; i++) files.echo(String(i));\n'
JS_CALLS = f'import {{ files }} from "gg";\nfor (let i = 0; i < {CALLS}; i++) files.echo(String(i));\n'
JS_FAILING = (
    'import { files } from "gg";\n'
    f"for (let i = 0; i < {CALLS}; i++) {{ try {{ files.missing(String(i)); }} catch {{}} }}\n"
)
TYPED = (
    'import {{ files, views }} from "gg";\n'
    "interface Tally {{ label: string; count: number }}\n"
    "const words: string[] = files.echo('a b c {n}').split(' ');\n"
    "const tally: Tally = {{ label: 'words', count: words.length }};\n"
    "views.openText(tally.label, String(tally.count));\n"
)


PY_TRIVIAL = 'from gg import views\nviews.open_text("alive", "yes")\n'
PY_FOUR_CALLS = (
    "from gg import files, views\n"
    'a = files.echo("one")\nb = files.echo("two")\nc = files.echo("three")\n'
    'views.open_text("sum", ",".join([a, b, c]))\n'
)
PY_THOUSAND = "from gg import files\nfor i in range(1000):\n    files.echo(str(i))\n"
PY_CALLS = f"from gg import files\nfor i in range({CALLS}):\n    files.echo(str(i))\n"
PY_FAILING = (
    f"from gg import files\nfor i in range({CALLS}):\n"
    "    try:\n        files.missing(str(i))\n    except OSError:\n        pass\n"
)
PY_TYPED = (
    "from dataclasses import dataclass\nfrom gg import files, views\n\n\n"
    "@dataclass\nclass Tally:\n    label: str\n    count: int\n\n\n"
    "words: list[str] = files.echo('a b c {n}').split(' ')\n"
    "tally = Tally('words', len(words))\nviews.open_text(tally.label, str(tally.count))\n"
)


def _ignore(scope: Any, args: Mapping[str, Any]) -> None:
    return None


def registry() -> Registry:
    return Registry(
        [
            Operation(
                "files", "echo", (Param("text", ParamType.STRING),), "string", "echo", Always(), _ignore
            ),
            Operation(
                "files", "missing", (Param("text", ParamType.STRING),), "string", "fail", Always(), _ignore
            ),
            Operation(
                "views",
                "open_text",
                (Param("label", ParamType.STRING), Param("body", ParamType.STRING)),
                "void",
                "open",
                Always(),
                _ignore,
            ),
        ]
    )


def echo_host(operation: str, args: Mapping[str, Any]) -> Any:
    """Echoes `files.echo`'s text; `files.missing` fails as a missing file does."""
    if operation == "files.missing":
        raise OperationError("missing", ErrorCode.NOT_FOUND, f"no such file: {args.get('text')}")
    return args.get("text")


ROW_OWNER = "bench/one-agent"  # the in-a-row programs' owner: one agent's replay


def timed(arm: Arm, source: str, idle: float, owner: str | None = None) -> tuple[float, float]:
    """Wall time of one run in ms (as the caller sees it) and the guest's own duration."""
    time.sleep(idle)
    start = time.perf_counter()
    execution = arm.run(source, echo_host, CEILINGS, owner=owner)
    wall = (time.perf_counter() - start) * 1000
    if not execution.ok:
        raise SystemExit(f"benchmark program failed: {execution.failure}")
    return wall, execution.duration_ms


def summary(label: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"{label:<42} p50 {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms   (n={len(ordered)})")


def series(
    arm: Arm, source: str, idle: float, pick: Callable[[tuple[float, float]], float], owner: str | None = None
) -> list[float]:
    return [pick(timed(arm, source, idle, owner)) for _ in range(RUNS)]


def bursts(arm: Arm, source: str) -> list[float]:
    """Wall times of RUNS programs run back to back in bursts of BURST."""
    walls: list[float] = []
    while len(walls) < RUNS:
        time.sleep(BURST_GAP_SECS)
        walls.extend(timed(arm, source, 0)[0] for _ in range(BURST))
    return walls[:RUNS]


def in_a_row(arm: Arm, label: str, source: str) -> None:
    """RUNS programs with no gap at all, after a turn's gap (the spares booted as between turns):
    as one owner, against the target, then with no owner."""
    print(f"{'load':<42} {load_average()}")
    time.sleep(BURST_GAP_SECS)
    walls = series(arm, source, 0, lambda t: t[0], ROW_OWNER)
    summary(label + ", one owner", walls)
    met = "met" if statistics.median(walls) <= ROW_TARGET_MS else "NOT met"
    print(f"{'':<42} mean {statistics.fmean(walls):7.2f} ms   (target ≤ {ROW_TARGET_MS:.0f} ms p50: {met})")
    time.sleep(BURST_GAP_SECS)
    fresh = series(arm, source, 0, lambda t: t[0])
    summary(label + ", no owner", fresh)
    print(f"{'':<42} mean {statistics.fmean(fresh):7.2f} ms")


def call_costs() -> None:
    """The cost of one host call, succeeding and failing, on each arm: wall time, and the CPU time
    gg and the guest's processes spent (which a busy machine inflates far less), per call."""
    print(f"host calls ({CALLS} in one program, {CALL_ROUNDS} rounds), load {load_average()}")
    bare = floor_costs()
    arms: list[tuple[str, Callable[[], JavaScriptArm | PythonArm], str, str]] = [
        ("JavaScript", lambda: JavaScriptArm(registry()), JS_CALLS, JS_FAILING),
        ("Python", lambda: PythonArm(registry()), PY_CALLS, PY_FAILING),
    ]
    for name, make, succeeding, failing in arms:
        with make() as arm:
            timed(arm, succeeding, 0)
            timed(arm, failing, 0)
            rounds = paired(arm, succeeding, failing)
        ok = medians([good for good, _ in rounds])
        bad = medians([wrong for _, wrong in rounds])
        ratio = medians([(wrong[0] / good[0], wrong[1] / good[1]) for good, wrong in rounds])
        within = "met" if max(ratio) <= FAILING_RATIO else "NOT met"
        goal = ""
        if name == "JavaScript":
            goal = f"   (target ≤ {CALL_TARGET_US:.0f} µs: {'met' if ok[0] <= CALL_TARGET_US else 'NOT met'})"
        print(f"{name + ' call, succeeding':<42} {ok[0]:7.1f} µs   cpu {ok[1]:6.1f} µs{goal}")
        print(f"{name + ' call, failing':<42} {bad[0]:7.1f} µs   cpu {bad[1]:6.1f} µs")
        if name == "JavaScript":
            above = f"{ok[0] - bare[0]:+7.1f} µs   cpu {ok[1] - bare[1]:+6.1f} µs"
            print(f"{'JavaScript call, gg above the floor':<42} {above}")
        against = f"wall {ratio[0]:.2f}×  cpu {ratio[1]:.2f}× (target ≤ {FAILING_RATIO}×: {within})"
        print(f"{name + ' failing ÷ succeeding':<42} {against}")
        if name == "JavaScript":
            one_cpu_ratio()
    print(f"{'load at the end':<42} {load_average()}")


def floor_costs() -> tuple[float, float]:
    """The floor under a JavaScript host call (`bench/floor.py`), measured as gg's call is, and
    the same floor failing."""
    bare = floor(CALLS, CALL_ROUNDS, CALL_GAP_SECS)
    print(f"{'floor: bare Deno ↔ Python round trip':<42} {bare[0]:7.1f} µs   cpu {bare[1]:6.1f} µs")
    failing = floor(CALLS, CALL_ROUNDS, CALL_GAP_SECS, failing=True)
    ratio = f"wall {failing[0] / bare[0]:.2f}×  cpu {failing[1] / bare[1]:.2f}×"
    print(f"{'floor failing ÷ succeeding':<42} {ratio}   ({failing[0]:.1f} µs, cpu {failing[1]:.1f} µs)")
    return bare


def one_cpu_ratio() -> None:
    """JavaScript failing ÷ succeeding with this process, and so the guest it starts, on one CPU."""
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(everywhere)})
    try:
        with JavaScriptArm(registry()) as arm:
            timed(arm, JS_CALLS, 0)
            timed(arm, JS_FAILING, 0)
            rounds = paired(arm, JS_CALLS, JS_FAILING)
    finally:
        os.sched_setaffinity(0, everywhere)
    ratio = medians([(wrong[0] / good[0], wrong[1] / good[1]) for good, wrong in rounds])
    print(f"{'JavaScript failing ÷ succeeding, one CPU':<42} wall {ratio[0]:.2f}×  cpu {ratio[1]:.2f}×")


def paired(
    arm: JavaScriptArm | PythonArm, succeeding: str, failing: str
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """`CALL_ROUNDS` rounds of (succeeding, failing) per-call costs, the two programs of a round run
    one after the other, the failing one first in every other round."""
    rounds: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for number in range(CALL_ROUNDS):
        if number % 2:
            wrong = per_call(arm, failing)
            rounds.append((per_call(arm, succeeding), wrong))
        else:
            good = per_call(arm, succeeding)
            rounds.append((good, per_call(arm, failing)))
    return rounds


def load_average() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def per_call(arm: JavaScriptArm | PythonArm, source: str) -> tuple[float, float]:
    """The wall time of one program of CALLS calls, and the CPU time gg and its guest spent on
    it, per call, in µs; the program starts after `CALL_GAP_SECS` of rest."""
    time.sleep(CALL_GAP_SECS)
    cpu = cpu_secs(arm.pool.pid)
    start = time.perf_counter()
    execution = arm.run(source, echo_host, CEILINGS)
    wall = time.perf_counter() - start
    if not execution.ok:
        raise SystemExit(f"benchmark program failed: {execution.failure}")
    return wall * 1e6 / CALLS, (cpu_secs(arm.pool.pid) - cpu) * 1e6 / CALLS


def checked(checker: TypeChecker, source: str) -> float:
    """Wall time of one type check in ms; the program must pass."""
    start = time.perf_counter()
    errors = checker.check(source)
    if errors:
        raise SystemExit(f"benchmark program was rejected: {errors}")
    return (time.perf_counter() - start) * 1000


def typescript() -> None:
    checker = TypeChecker(declarations(registry()))
    try:
        print(f"{'type check, first (starts the checker)':<42} {checked(checker, TYPED.format(n=0)):7.1f} ms")
        warm = [checked(checker, TYPED.format(n=n)) for n in range(1, RUNS + 1)]
        summary("type check, warm, a new program each time", warm)
    finally:
        checker.close()
    with TypeScriptArm(registry()) as arm:
        start = time.perf_counter()
        timed(arm, TRIVIAL, 0)
        print(f"{'first TS program (pool and checker)':<42} {(time.perf_counter() - start) * 1000:7.1f} ms")
        for _ in range(5):
            timed(arm, FOUR_CALLS, IDLE_SECS)
        summary("TS trivial, idle gap, wall (check + run)", series(arm, TRIVIAL, IDLE_SECS, lambda t: t[0]))
        summary("TS 4 host calls, idle gap, wall", series(arm, FOUR_CALLS, IDLE_SECS, lambda t: t[0]))
        summary(
            "TS typed program, idle gap, wall",
            [timed(arm, TYPED.format(n=n), IDLE_SECS)[0] for n in range(RUNS)],
        )
        thousand = [timed(arm, THOUSAND, IDLE_SECS) for _ in range(5)]
        summary("TS 1000 host calls in one program, wall", [t[0] for t in thousand])


def python() -> None:
    with PythonArm(registry()) as arm:
        start = time.perf_counter()
        timed(arm, PY_TRIVIAL, 0)
        print(
            f"{'first Python program (starts the worker)':<42} {(time.perf_counter() - start) * 1000:7.1f} ms"
        )
        for _ in range(5):
            timed(arm, PY_FOUR_CALLS, IDLE_SECS)
        summary("Python trivial, idle gap, wall", series(arm, PY_TRIVIAL, IDLE_SECS, lambda t: t[0]))
        summary("Python 4 host calls, idle gap, wall", series(arm, PY_FOUR_CALLS, IDLE_SECS, lambda t: t[0]))
        summary("Python trivial, back to back, wall", series(arm, PY_TRIVIAL, 0, lambda t: t[0]))
        thousand = [timed(arm, PY_THOUSAND, IDLE_SECS) for _ in range(5)]
        summary("Python 1000 host calls in one program, wall", [t[0] for t in thousand])
    with PythonArm(registry(), checked=True) as typed:
        start = time.perf_counter()
        timed(typed, PY_TYPED.format(n=0), 0)
        print(
            f"{'first python-typed program (worker, check)':<42} "
            f"{(time.perf_counter() - start) * 1000:7.1f} ms"
        )
        compile_ms: list[float] = []
        walls: list[float] = []
        for n in range(1, RUNS + 1):
            time.sleep(IDLE_SECS)
            start = time.perf_counter()
            execution = typed.run(PY_TYPED.format(n=n), echo_host, CEILINGS)
            walls.append((time.perf_counter() - start) * 1000)
            if not execution.ok or execution.compile_ms is None:
                raise SystemExit(f"benchmark program failed: {execution.failure}")
            compile_ms.append(execution.compile_ms)
        summary("python-typed check (compileMs), warm", compile_ms)
        summary("python-typed program, idle gap, wall", walls)


def javascript() -> None:
    with JavaScriptArm(registry()) as arm:
        start = time.perf_counter()
        timed(arm, TRIVIAL, 0)
        print(f"first program (starts the pool)            {(time.perf_counter() - start) * 1000:7.1f} ms")
        for _ in range(5):
            timed(arm, FOUR_CALLS, IDLE_SECS)
        summary("trivial, idle gap, wall", series(arm, TRIVIAL, IDLE_SECS, lambda t: t[0]))
        summary("4 host calls, idle gap, wall", series(arm, FOUR_CALLS, IDLE_SECS, lambda t: t[0]))
        summary(f"trivial, back to back in bursts of {BURST}, wall", bursts(arm, TRIVIAL))
        summary(f"4 host calls, back to back in bursts of {BURST}", bursts(arm, FOUR_CALLS))
        in_a_row(arm, f"trivial, {RUNS} in a row", TRIVIAL)
        in_a_row(arm, f"4 host calls, {RUNS} in a row", FOUR_CALLS)
        thousand = [timed(arm, THOUSAND, IDLE_SECS) for _ in range(5)]
        summary("1000 host calls in one program, wall", [t[0] for t in thousand])
        summary("1000 host calls in one program, guest", [t[1] for t in thousand])


def in_a_row_only() -> None:
    with JavaScriptArm(registry()) as arm:
        timed(arm, TRIVIAL, 0)
        in_a_row(arm, f"trivial, {RUNS} in a row", TRIVIAL)
        in_a_row(arm, f"4 host calls, {RUNS} in a row", FOUR_CALLS)


SECTIONS: dict[str, Callable[[], object]] = {
    "javascript": javascript,
    "typescript": typescript,
    "python": python,
    "calls": call_costs,
    "floor": floor_costs,
    "row": in_a_row_only,
}


def main() -> None:
    """Every section, or those named on the command line (`row` is the in-a-row part of
    `javascript` alone)."""
    names = sys.argv[1:] or ["javascript", "typescript", "python", "calls"]
    for name in names:
        SECTIONS[name]()


if __name__ == "__main__":
    main()
