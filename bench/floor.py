"""The machine's floor under a JavaScript host call: the same round trip with no gg code in it.

A Deno program writes one call as a JSON line to a named pipe and blocks reading a second for the
reply; a Python loop blocks reading the first, `json.loads` the line, `json.dumps` a reply and
writes it back. What one such round trip costs, wall and CPU (this process's and Deno's), is what
any host call between a Deno guest and a Python host pays on this machine; gg's call is printed
beside it (`bench/guest.py calls`), and what it costs above it is gg's own.

The failing floor is the same round trip failing: the Python loop raises and catches an exception
and answers `ok: false`, the Deno program throws and catches an `Error` made from the answer; what
failing costs above succeeding there is the engines' and the machine's, not gg's.

Run as `.venv/bin/python bench/floor.py` to print both floors alone: the median per round trip of
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
const [calls, rounds, failing] = Deno.args.map(Number);
const out = Deno.openSync("calls", { write: true });
const back = Deno.openSync("replies", { read: true });
const enc = new TextEncoder(), dec = new TextDecoder();
const buf = new Uint8Array(65536);
for (let round = 0; round < rounds; round++) {
  back.readSync(buf); // go
  for (let i = 0; i < calls; i++) {
    out.writeSync(enc.encode('{"t":"call","op":"files.echo","args":{"text":"' + i + '"}}\\n'));
    const n = back.readSync(buf);
    const answer = JSON.parse(dec.decode(buf.subarray(0, n - 1)));
    if (!answer.ok) {
      try {
        throw new Error(answer.error.message);
      } catch {}
    }
  }
  out.writeSync(enc.encode("done\\n"));
}
"""


def floor(
    calls: int = CALLS, rounds: int = ROUNDS, gap_secs: float = GAP_SECS, failing: bool = False
) -> tuple[float, float]:
    """The median wall and CPU time of one bare round trip, in µs, over `rounds` rounds of
    `calls`, each round after `gap_secs` of rest; every call fails when `failing`."""
    with tempfile.TemporaryDirectory(prefix="gg-floor-") as folder:
        for name in ("calls", "replies"):
            os.mkfifo(os.path.join(folder, name), 0o600)
        with open(os.path.join(folder, "guest.js"), "w") as file:
            file.write(GUEST)
        command = [find_deno_bin(), "run", "--allow-read", "--allow-write", "guest.js"]
        guest = subprocess.Popen([*command, str(calls), str(rounds), str(int(failing))], cwd=folder)
        try:
            calls_fd = os.open(os.path.join(folder, "calls"), os.O_RDONLY)
            replies_fd = os.open(os.path.join(folder, "replies"), os.O_WRONLY)
            pipes = (calls_fd, replies_fd)
            samples = [_round(guest.pid, pipes, calls, gap_secs, failing) for _ in range(rounds)]
            os.close(calls_fd)
            os.close(replies_fd)
        finally:
            guest.wait(timeout=30)
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def _round(guest: int, pipes: tuple[int, int], calls: int, gap: float, failing: bool) -> tuple[float, float]:
    """One round: the go line, then `calls` calls answered; wall and CPU per round trip, in µs."""
    calls_fd, replies_fd = pipes
    time.sleep(gap)
    cpu = cpu_secs(guest)
    start = time.perf_counter()
    os.write(replies_fd, b"go\n")
    for _ in range(calls):
        call = json.loads(os.read(calls_fd, READ_BYTES))
        try:
            answer = {"ok": True, "value": _host(call["args"]["text"], failing)}
        except LookupError as error:
            answer = {"ok": False, "error": {"code": "not-found", "message": str(error)}}
        os.write(replies_fd, (json.dumps(answer) + "\n").encode())
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


def _host(text: str, failing: bool) -> str:
    if failing:
        raise LookupError(f"no such file: {text}")
    return text


def main() -> None:
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    wall, cpu = floor()
    print(f"{'floor: bare Deno ↔ Python round trip':<42} {wall:7.1f} µs   cpu {cpu:6.1f} µs   (load {load})")
    wall, cpu = floor(failing=True)
    print(f"{'floor: the same round trip, failing':<42} {wall:7.1f} µs   cpu {cpu:6.1f} µs")


if __name__ == "__main__":
    main()
