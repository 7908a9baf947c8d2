"""The machine's floor under a JavaScript host call: the same round trip with no gg code in it.

A Deno program writes one call as a JSON line to a named pipe and blocks reading a second for the
reply; a Python loop blocks reading the first, `json.loads` the line, `json.dumps` a reply and
writes it back. What one such round trip costs, wall and CPU (this process's and Deno's), is what
any host call between a Deno guest and a Python host pays on this machine; gg's call is printed
beside it (`bench/guest.py calls`), and what it costs above it is gg's own.

Run as `.venv/bin/python bench/floor.py` to print the floor alone: the median per round trip of
`rounds` rounds of `calls` round trips, each after `gap_secs` of rest, with the load average.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
import time

from deno import find_deno_bin

from gg.sandbox.process import descendants

CALLS = 1000
ROUNDS = 9
GAP_SECS = 1.0
READ_BYTES = 1 << 16

GUEST = """\
const [calls, rounds] = Deno.args.map(Number);
const out = Deno.openSync("calls", { write: true });
const back = Deno.openSync("replies", { read: true });
const enc = new TextEncoder(), dec = new TextDecoder();
const buf = new Uint8Array(65536);
for (let round = 0; round < rounds; round++) {
  back.readSync(buf); // go
  for (let i = 0; i < calls; i++) {
    out.writeSync(enc.encode('{"t":"call","op":"files.echo","args":{"text":"' + i + '"}}\\n'));
    const n = back.readSync(buf);
    JSON.parse(dec.decode(buf.subarray(0, n - 1)));
  }
  out.writeSync(enc.encode("done\\n"));
}
"""


def floor(calls: int = CALLS, rounds: int = ROUNDS, gap_secs: float = GAP_SECS) -> tuple[float, float]:
    """The median wall and CPU time of one bare round trip, in µs, over `rounds` rounds of
    `calls`, each round after `gap_secs` of rest."""
    with tempfile.TemporaryDirectory(prefix="gg-floor-") as folder:
        for name in ("calls", "replies"):
            os.mkfifo(os.path.join(folder, name), 0o600)
        with open(os.path.join(folder, "guest.js"), "w") as file:
            file.write(GUEST)
        guest = subprocess.Popen(
            [find_deno_bin(), "run", "--allow-read", "--allow-write", "guest.js", str(calls), str(rounds)],
            cwd=folder,
        )
        try:
            calls_fd = os.open(os.path.join(folder, "calls"), os.O_RDONLY)
            replies_fd = os.open(os.path.join(folder, "replies"), os.O_WRONLY)
            samples = [_round(guest.pid, calls_fd, replies_fd, calls, gap_secs) for _ in range(rounds)]
            os.close(calls_fd)
            os.close(replies_fd)
        finally:
            guest.wait(timeout=30)
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def _round(guest: int, calls_fd: int, replies_fd: int, calls: int, gap_secs: float) -> tuple[float, float]:
    """One round: the go line, then `calls` calls answered; wall and CPU per round trip, in µs."""
    time.sleep(gap_secs)
    cpu = cpu_secs(guest)
    start = time.perf_counter()
    os.write(replies_fd, b"go\n")
    for _ in range(calls):
        call = json.loads(os.read(calls_fd, READ_BYTES))
        os.write(replies_fd, (json.dumps({"ok": True, "value": call["args"]["text"]}) + "\n").encode())
    wall = time.perf_counter() - start
    cpu = cpu_secs(guest) - cpu
    os.read(calls_fd, READ_BYTES)  # done: the guest waits for the next go
    return wall * 1e6 / calls, cpu * 1e6 / calls


def cpu_secs(guest: int | None) -> float:
    """The CPU seconds this process and the guest process `guest` with its descendants used."""
    used = time.process_time()
    for pid in descendants(guest) if guest is not None else ():
        try:
            with open(f"/proc/{pid}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        used += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return used


def main() -> None:
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    wall, cpu = floor()
    print(f"{'floor: bare Deno ↔ Python round trip':<42} {wall:7.1f} µs   cpu {cpu:6.1f} µs   (load {load})")


if __name__ == "__main__":
    main()
