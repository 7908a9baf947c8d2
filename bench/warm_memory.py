"""Benchmark what a warm Worker keeps: the JavaScript guest process's resident memory after every 50
of `WARM_PROGRAMS` programs, each leaving a few hundred KiB on its realm's global, run as one owner
(one agent: a warm Worker, a fresh realm each, retired after 64 programs) and as no owner (a Worker
each). The figure must level off for one owner: a realm is let go once its run is over, and
collected once the Worker's heap holds 4 MiB more than at rest or after its last collection
(`guest/realm.js`).

Run as `.venv/bin/python bench/warm_memory.py`.
"""

from __future__ import annotations

from guest import ROW_OWNER, load_average, registry, timed

from gg.sandbox.arms.javascript import JavaScriptArm

WARM_PROGRAMS = 200
KEEPS = 'globalThis.kept = Array.from({ length: 2000 }, (_, i) => ({ i, s: "x".repeat(50) }));\n'


def warm_memory() -> None:
    """The guest process's resident memory over `WARM_PROGRAMS` programs of one owner (a warm
    Worker, a realm each, retired after 64) and of no owner (a Worker each)."""
    print(f"resident memory over {WARM_PROGRAMS} programs, load {load_average()}")
    for owner in (ROW_OWNER, None):
        with JavaScriptArm(registry()) as arm:
            seen = [_rss_after(arm, owner) for _ in range(WARM_PROGRAMS // 50)]
        print(f"{'one owner' if owner else 'no owner':<42} MiB after 50, 100, …: {seen}")


def _rss_after(arm: JavaScriptArm, owner: str | None) -> int:
    """The guest process's resident memory (MiB) after 50 more programs of `owner`."""
    for _ in range(50):
        timed(arm, KEEPS, 0, owner)
    with open(f"/proc/{arm.pool.pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS"))


if __name__ == "__main__":
    warm_memory()
