"""How many Workers one guest process holds, and the memory its engine reserves for them. Pure.

Rules kept here (the guest, `guest/host.js`, is told them at `init`):
- `spares` Workers are kept booted for the next programs; each Worker kept warm for an owner
  takes the place of one, down to one, and a process whose warm set is full keeps none (every
  agent seated there has its own Worker);
- a Worker is kept warm for the `warm_owners` owners served last (8: as many as the agents a
  process serves when 32 agents take turns at once on four processes, issue 27), while its
  owner's next program comes within `warm_idle_ms`;
- past `lingering` retired Workers still alive, a process is crowded and replaced;
- at rest a process is held to what its engine reserves (`ENGINE_RESERVE_BYTES`) and
  `WORKER_RESERVE_BYTES` for each Worker it may hold then: its warm ones and a spare, one
  booting, those retired and still ending, and the one whose program just ended.
"""

from __future__ import annotations

from dataclasses import dataclass

_MiB = 1024 * 1024
ENGINE_RESERVE_BYTES = 600 * _MiB
WORKER_RESERVE_BYTES = 540 * _MiB


@dataclass(frozen=True)
class Workers:
    """What a guest process keeps of its Workers (see the module rules)."""

    spares: int = 4  # a whole hand-over chain runs back to back on Workers booted beforehand
    warm_owners: int = 8
    # An agent's programs in a row (a replay, a hand-over chain) come far sooner; a turn that waits
    # for a model finds a spare booted meanwhile.
    warm_idle_ms: int = 2000
    lingering: int = 2

    @property
    def most_at_rest(self) -> int:
        """The most Workers a process holds at rest."""
        return max(self.spares, self.warm_owners + 1) + 1 + self.lingering + 1

    @property
    def data_base_bytes(self) -> int:
        """What a process at rest may map beside its heap: its engine's and Workers' reserves."""
        return ENGINE_RESERVE_BYTES + self.most_at_rest * WORKER_RESERVE_BYTES

    def init_fields(self) -> dict[str, int]:
        """The counts the guest is told at `init`."""
        return {
            "spareWorkers": self.spares,
            "warmOwners": self.warm_owners,
            "warmIdleMs": self.warm_idle_ms,
            "lingeringWorkers": self.lingering,
        }


WORKERS = Workers()  # what every guest process keeps unless told otherwise (tests)
