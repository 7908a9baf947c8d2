"""Measure how much memory the guest holds while the attack corpus's memory cases run.

Run as `.venv/bin/python bench/memory.py`. Runs cases 055 to 060 of `tests/cases/attacks/` (heap
growth, huge strings, a 1 GiB Uint8Array, a 1 GiB Blob, wasm memory and shared buffers, deep
recursion; 056 on the Python arm, the rest on JavaScript) under each case's ceilings, then the
JavaScript programs of `EXTRA` under the default 256 MiB ceiling, and samples the resident memory
of each guest process of the arm with everything it started (every millisecond or so) while the
program runs; the peak is the busiest one's (whichever process the program was leased). The
baseline is the guest idle, just before the run, after a trivial program (its spare Workers
booted). Prints per case the outcome, the baseline, the peak and the peak against the case's
`maxMemoryBytes`; then the worst case. Target: the whole guest's peak ≤ maxMemoryBytes + 64 MiB,
its idle engine included.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from gg.config.ceilings import Ceilings
from gg.errors import ErrorCode, OperationError
from gg.sandbox.arms import build_arm
from gg.sandbox.execution import Arm
from gg.sandbox.process import resident_bytes
from gg.sdk.catalogue import default_registry

CASES = Path(__file__).resolve().parents[1] / "tests" / "cases" / "attacks"
NUMBERS = ("055", "056", "057", "058", "059", "060")
MARGIN_MIB = 64
_MiB = 1024 * 1024
DEFAULT_CEILINGS = {"timeoutSecs": 30, "maxMemoryBytes": 256 * _MiB}
EXTRA = {  # arrays, typed arrays, buffers past the default ceiling, each in one line
    "join": 'const s = new Array(3e7).fill("ab").join("");\nconsole.log(s.length);\n',
    "arrays": "const kept = [];\nfor (;;) kept.push(new Array(1e6).fill(kept.length));\n",
    "typed": "const kept = [];\nfor (;;) kept.push(new Uint8Array(2 ** 20).fill(kept.length & 255));\n",
    "buffer": "const big = new Uint8Array(300 * 2 ** 20).fill(1);\nconsole.log(big.length);\n",
}
TRIVIAL = {
    "javascript": 'import { views } from "gg";\nviews.openText("alive", "yes");\n',
    "python": 'from gg import views\nviews.open_text("alive", "yes")\n',
}


def host(operation: str, args: Mapping[str, Any]) -> Any:
    if operation.startswith("files."):
        raise OperationError(operation.split(".", 1)[1], ErrorCode.NOT_FOUND, "no such file")
    return None


def guests(language: str) -> list[int]:
    """The guest processes of `language`'s arm this process started (all of its pool's, whichever
    a program was leased): Deno for JavaScript, Python workers for Python."""
    found: list[int] = []
    for task in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as children:
            found.extend(int(pid) for pid in children.read().split())
    return [pid for pid in found if (_command(pid) == "deno") == (language == "javascript")]


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip()
    except OSError:
        return ""


class Sampler:
    """The peak resident memory of the busiest guest process (with its descendants), sampled on
    a thread."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.peak = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._done.is_set():
            self.peak = max([self.peak, *(resident_bytes(pid) for pid in guests(self.language))])
            time.sleep(0.001)


def guest_pid(arm: Arm) -> int:
    pool = getattr(arm, "pool")  # noqa: B009 - both arms expose their pool
    pid = pool.pid
    assert pid is not None, "the arm has a guest after a trivial program"
    return int(pid)


def measure(arm: Arm, language: str, case: dict[str, Any]) -> tuple[str, int, int]:
    """(outcome, baseline, peak) of one case's program."""
    limits = case["ceilings"]
    ceilings = Ceilings(float(limits["timeoutSecs"]), int(limits["maxMemoryBytes"]))
    arm.run(TRIVIAL[language], host, Ceilings(5.0, ceilings.max_memory_bytes))
    time.sleep(0.5)  # the spare Workers booted, the process idle
    pid = guest_pid(arm)
    baseline = resident_bytes(pid)
    with Sampler(language) as sampler:
        execution = arm.run(case["program"], host, ceilings)
    outcome = "ok" if execution.failure is None else execution.failure.type.value
    return outcome, baseline, sampler.peak


def cases() -> list[tuple[str, dict[str, Any]]]:
    """The memory cases of the corpus, then the extra programs, each with its name."""
    named = [(number, yaml.safe_load(next(CASES.glob(f"{number}-*.yaml")).read_text())) for number in NUMBERS]
    extra = {"arm": "javascript", "ceilings": DEFAULT_CEILINGS}
    return named + [(name, {**extra, "program": program}) for name, program in EXTRA.items()]


def main() -> None:
    worst = 0.0
    arms = {language: build_arm(language, default_registry()) for language in TRIVIAL}
    try:
        for number, case in cases():
            language = case["arm"]
            outcome, baseline, peak = measure(arms[language], language, case)
            cap = int(case["ceilings"]["maxMemoryBytes"])
            over = (peak - cap) / _MiB
            worst = max(worst, over)
            sizes = (
                f"cap {cap // _MiB:5d} MiB   baseline {baseline // _MiB:4d} MiB   peak {peak // _MiB:5d} MiB"
            )
            print(f"{number:<6} {language:<10} {outcome:<22} {sizes}   peak - cap {over:+7.1f} MiB")
    finally:
        for arm in arms.values():
            arm.close()
    verdict = "within" if worst <= MARGIN_MIB else "OVER"
    print(f"worst: peak - cap = {worst:+.1f} MiB ({verdict} the {MARGIN_MIB} MiB margin)")


if __name__ == "__main__":
    main()
