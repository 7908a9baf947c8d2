"""Benchmark `gg show` on a run holding one large program, its size all on one line.

Run as `.venv/bin/python bench/show_large.py [MEGABYTES ...]` (default 1 4 16). For each size it
replays, in a scratch folder, a one-turn run whose program holds a comment of that many megabytes
on one line, then times `gg show latest` and `gg show latest --json` as whole processes and prints
each one's wall milliseconds. `gg show` cuts a program's line at 2,000 characters before wrapping
it, so both grow with the record's size and neither with the square of the line's length.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GG = Path(sys.executable).parent / "gg"
SIZES_MB = (1, 4, 16)
CONFIG = {
    "name": "large-program",
    "workspace": "workspace",
    "agents": [
        {
            "slug": "root",
            "task": "t",
            "model": {"provider": "replay", "journal": "j.jsonl"},
            "capabilities": [{"id": "responses-as-code", "params": {"language": "javascript"}}],
        }
    ],
}


def recorded(folder: Path, megabytes: int) -> None:
    """A run in `folder` whose one program carries `megabytes` MB on one line."""
    (folder / "workspace").mkdir(parents=True)
    (folder / "gg.json").write_text(json.dumps(CONFIG))
    program = 'import { session } from "gg";\n// ' + "x" * megabytes * 1_000_000 + '\nsession.finish("ok");'
    reply = {"text": "x", "calls": [{"name": "submit_program", "arguments": {"program": program}}]}
    (folder / "j.jsonl").write_text(json.dumps(reply) + "\n")
    subprocess.run([str(GG), "run", "."], cwd=folder, capture_output=True, check=True)


def wall_ms(argv: list[str], folder: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=folder, capture_output=True, check=True)
    return (time.perf_counter() - start) * 1000


def main(sizes: list[int]) -> None:
    print(f"{'program':>9}  {'gg show':>10}  {'gg show --json':>15}")
    for megabytes in sizes:
        with tempfile.TemporaryDirectory(prefix="gg-bench-show-") as scratch:
            folder = Path(scratch)
            recorded(folder, megabytes)
            shown = wall_ms([str(GG), "show", "latest"], folder)
            as_json = wall_ms([str(GG), "show", "latest", "--json"], folder)
        print(f"{megabytes:>6} MB  {shown:>7.0f} ms  {as_json:>12.0f} ms")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or list(SIZES_MB))
