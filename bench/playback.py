"""Benchmark playback with a verdict: how long `gg replay --verify RUN` takes for each example's
recorded run, against how long the recorded run itself took, both as whole processes.

Run as `.venv/bin/python bench/playback.py [RUNS]` (default 3 verifications an example). Each
example is copied into a scratch folder and run once with `--record`; then `gg replay --verify` is
timed RUNS times, and the wall time's p50, min and max are printed in milliseconds beside the
recorded run's, with the verdict's first word. No target: a playback does a run's work again
(every program runs), less the model's time, which a replayed example does not have either.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GG = Path(sys.executable).parent / "gg"
NAMES = ["spec-audit", "python-api", "mcp-notes", "review-loop", "planner"]


def timed(argv: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    return (time.perf_counter() - start) * 1000, done.stdout.strip()


def main(runs: int) -> None:
    print(f"{'example':<12} {'recorded ms':>12} {'verify p50':>11} {'min':>8} {'max':>8}  verdict")
    with tempfile.TemporaryDirectory() as scratch:
        for name in NAMES:
            base = Path(scratch) / name
            base.mkdir()
            shutil.copytree(EXAMPLES / name, base / name)
            recorded, _ = timed([str(GG), "run", name, "--record", "run.jsonl"], base)
            figures: list[float] = []
            said = ""
            for _ in range(runs):
                took, said = timed([str(GG), "replay", "--verify", "latest"], base)
                figures.append(took)
            print(
                f"{name:<12} {recorded:>12.0f} {statistics.median(figures):>11.0f} {min(figures):>8.0f} "
                f"{max(figures):>8.0f}  {said.split(' (')[0]}"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS)
