"""Benchmark the JavaScript guest (Deno pool, warm): per-program latency and host-call cost.

Run as `.venv/bin/python bench/guest.py`. Prints p50/p95 over RUNS programs for a trivial
program and a 4-host-call program (with an idle gap between programs, as between turns, and
back to back), and the time of 1000 host calls made by one program against a Python echo host.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.execution import Ceilings
from gg.sdk.registry import Always, Operation, Param, ParamType, Registry

RUNS = 60
IDLE_SECS = 0.15
CEILINGS = Ceilings(timeout_secs=10.0, max_memory_bytes=256 * 1024 * 1024)
TRIVIAL = 'import { views } from "gg";\nviews.openText("alive", "yes");\n'
FOUR_CALLS = (
    'import { files, views } from "gg";\n'
    'const a = files.echo("one");\nconst b = files.echo("two");\n'
    'const c = files.echo("three");\nviews.openText("sum", [a, b, c].join(","));\n'
)
THOUSAND = 'import { files } from "gg";\nfor (let i = 0; i < 1000; i++) files.echo(String(i));\n'


def _ignore(scope: Any, args: Mapping[str, Any]) -> None:
    return None


def registry() -> Registry:
    return Registry(
        [
            Operation(
                "files", "echo", (Param("text", ParamType.STRING),), "string", "echo", Always(), _ignore
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
    return args.get("text")


def timed(arm: JavaScriptArm, source: str, idle: float) -> tuple[float, float]:
    """Wall time of one run in ms (as the caller sees it) and the guest's own duration."""
    time.sleep(idle)
    start = time.perf_counter()
    execution = arm.run(source, echo_host, CEILINGS)
    wall = (time.perf_counter() - start) * 1000
    if not execution.ok:
        raise SystemExit(f"benchmark program failed: {execution.failure}")
    return wall, execution.duration_ms


def summary(label: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"{label:<42} p50 {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms   (n={len(ordered)})")


def series(
    arm: JavaScriptArm, source: str, idle: float, pick: Callable[[tuple[float, float]], float]
) -> list[float]:
    return [pick(timed(arm, source, idle)) for _ in range(RUNS)]


def main() -> None:
    with JavaScriptArm(registry()) as arm:
        start = time.perf_counter()
        timed(arm, TRIVIAL, 0)
        print(f"first program (starts the pool)            {(time.perf_counter() - start) * 1000:7.1f} ms")
        for _ in range(5):
            timed(arm, FOUR_CALLS, IDLE_SECS)
        summary("trivial, idle gap, wall", series(arm, TRIVIAL, IDLE_SECS, lambda t: t[0]))
        summary("4 host calls, idle gap, wall", series(arm, FOUR_CALLS, IDLE_SECS, lambda t: t[0]))
        summary("trivial, back to back, wall", series(arm, TRIVIAL, 0, lambda t: t[0]))
        summary("4 host calls, back to back, wall", series(arm, FOUR_CALLS, 0, lambda t: t[0]))
        thousand = [timed(arm, THOUSAND, IDLE_SECS) for _ in range(5)]
        summary("1000 host calls in one program, wall", [t[0] for t in thousand])
        summary("1000 host calls in one program, guest", [t[1] for t in thousand])


if __name__ == "__main__":
    main()
