"""Benchmark the shell's jail: `true` run through the jail against `true` run as a plain
subprocess on the same machine.

Run as `.venv/bin/python bench/shell.py`. Prints p50/p95 over RUNS commands of each, and the
jail's overhead (the difference of the medians). Target: `true` through the jail ≤ 15 ms p50.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gg.sandbox.jail import Exited, JailPolicy, open_jail

RUNS = 200
TARGET_MS = 15.0


def _timed(run: Callable[[], None]) -> list[float]:
    run()  # warm the page cache and the interpreter's paths
    samples: list[float] = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _report(label: str, samples: list[float]) -> float:
    p50 = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20)[-1]
    print(f"{label:<28} p50 {p50:6.2f} ms   p95 {p95:6.2f} ms   ({len(samples)} runs)")
    return p50


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="gg-bench-shell-") as folder:
        workspace = Path(folder).resolve()
        jail = open_jail(JailPolicy(workspace, max_memory_bytes=1 << 30))

        def jailed() -> None:
            end = jail.run("true", 10.0)
            assert isinstance(end, Exited) and end.exit_code == 0, end

        def plain() -> None:
            subprocess.run(["/bin/sh", "-c", "true"], cwd=workspace, env={}, check=True)

        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"uid {os.geteuid()}, {os.cpu_count()} cores, load average {load}")
        plain_p50 = _report("plain subprocess sh -c true", _timed(plain))
        jail_p50 = _report("jailed shell.shell('true')", _timed(jailed))
        verdict = "meets" if jail_p50 <= TARGET_MS else "misses"
        print(f"jail overhead p50 {jail_p50 - plain_p50:.2f} ms; {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()
