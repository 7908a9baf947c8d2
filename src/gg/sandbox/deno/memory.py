"""What a JavaScript program's guest process may hold while the program runs. Pure.

Rules kept here:
- the memory ceiling holds the whole guest process, but for the Workers other agents keep warm
  there: the engine, its booted Workers and all the program holds (heap, typed arrays, Blobs,
  wasm memory) stay within `maxMemoryBytes` plus `ENGINE_SHARE_BYTES`; what the process held
  idle, just before the program began, is taken out of that, and the program is allowed the
  rest, never less than `LEAST_ALLOWANCE_BYTES` (an engine that holds more idle than the share
  leaves, under a small ceiling);
- a Worker kept warm for another owner is charged to that owner, not to the program: what the
  guest says they hold (`neighbours`: for each, the least a ready Worker holds, as V8 counts
  its heap and external memory, so never more than they hold) is not taken out, and none of
  them is retired while the program runs. What the program's own warm Worker kept is its own;
- the allowance is held two ways: as the process's data limit (`RLIMIT_DATA`, what it had
  mapped plus the allowance), which the kernel enforces at each allocation, so an allocation
  past it fails there (V8 throws a `RangeError` at the program's line for an ArrayBuffer, and
  aborts for its own heap); and as its resident memory, read by the pool's `Watch`, which stops
  the program `WATCH_MARGIN_BYTES` short of the allowance, before V8 spends its time collecting
  garbage at the data limit.
"""

from __future__ import annotations

from dataclasses import dataclass

_MiB = 1024 * 1024
ENGINE_SHARE_BYTES = 64 * _MiB
LEAST_ALLOWANCE_BYTES = 32 * _MiB
WATCH_MARGIN_BYTES = 16 * _MiB


@dataclass(frozen=True)
class Allowance:
    """The memory one run may add to its guest process: `data_limit` for its `RLIMIT_DATA`,
    `resident_limit` for its watch."""

    data_limit: int
    resident_limit: int


def allowance(ceiling_bytes: int, idle_resident: int, idle_data: int, neighbours: int = 0) -> Allowance:
    """The allowance of a run whose ceiling is `ceiling_bytes`, on a process that held
    `idle_resident` bytes resident and `idle_data` bytes of data mappings just before it, of
    which other owners' warm Workers hold `neighbours`."""
    charged = idle_resident - min(neighbours, idle_resident)
    room = max(ceiling_bytes + ENGINE_SHARE_BYTES - charged, LEAST_ALLOWANCE_BYTES)
    return Allowance(idle_data + room, idle_resident + room - WATCH_MARGIN_BYTES)
