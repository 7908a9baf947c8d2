"""Benchmark what OpenTelemetry export costs a run: a replayed run's wall time with and without
`--otel`, the spans going to a collector on loopback.

Run as `.venv/bin/python bench/otel.py [RUNS]` (default 7 pairs, after one warm-up pair that is not
counted). It starts a minimal OTLP/HTTP receiver on 127.0.0.1 (it answers every POST to
`/v1/traces` with 200 and counts the bytes), then replays `examples/planner` (six agents, a fork
and an exec) in a fresh copy each time, alternating a plain run and one with `--otel` so both see
the same machine load, and prints each kind's wall time (p50, min, max, in ms), the CPU time's p50
(user + system of gg and its guests), the p50 differences in per cent (target: the wall's at most
5 % apart), and the spans' bytes the receiver took. The receiver's own work happens in this
process, off gg's clock.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

RUNS = 7
TARGET_PERCENT = 5.0
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "planner"
GG = Path(sys.executable).parent / "gg"


class Receiver(BaseHTTPRequestHandler):
    taken = 0

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        Receiver.taken += len(self.rfile.read(length))
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def timed_run(scratch: Path, extra: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one replayed run of a fresh copy of the example."""
    target = scratch / "planner"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(EXAMPLE, target)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([str(GG), "run", str(target), *extra], cwd=scratch, env=env, capture_output=True)
    wall = (time.perf_counter() - start) * 1000
    if done.returncode != 0 or b"OpenTelemetry" in done.stderr:
        sys.exit(
            f"gg run {' '.join(extra)} exited {done.returncode}:\n{done.stderr.decode(errors='replace')}"
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return wall, cpu


def main(runs: int) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{server.server_address[1]}"}
    env.pop("GG_OTEL", None)
    figures: dict[str, list[tuple[float, float]]] = {"plain": [], "--otel": []}
    with tempfile.TemporaryDirectory(prefix="gg-bench-otel-") as folder:
        scratch = Path(folder)
        for round_ in range(runs + 1):
            for label, extra in (("plain", []), ("--otel", ["--otel"])):
                measured = timed_run(scratch, extra, env)
                if round_ > 0:
                    figures[label].append(measured)
    server.shutdown()
    for label, pairs in figures.items():
        walls = [wall for wall, _ in pairs]
        cpu = statistics.median(c for _, c in pairs)
        print(
            f"{label:>7}: wall p50 {statistics.median(walls):7.0f} ms  min {min(walls):7.0f}  "
            f"max {max(walls):7.0f}  cpu p50 {cpu:7.0f} ms  ({len(pairs)} runs)"
        )
    plain = statistics.median(w for w, _ in figures["plain"])
    otel = statistics.median(w for w, _ in figures["--otel"])
    apart = (otel - plain) / plain * 100
    verdict = "within" if abs(apart) <= TARGET_PERCENT else "OVER"
    print(f"--otel vs plain: {apart:+.1f} % wall p50 ({verdict} the {TARGET_PERCENT:.0f} % target)")
    plain_cpu = statistics.median(c for _, c in figures["plain"])
    otel_cpu = statistics.median(c for _, c in figures["--otel"])
    print(f"--otel vs plain: {(otel_cpu - plain_cpu) / plain_cpu * 100:+.1f} % cpu p50 (less moved by load)")
    print(f"the receiver took {Receiver.taken} bytes of spans over {runs + 1} runs")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS)
