"""The cells of a study: every (config, task, repeat), in the order the study's seed deals them.

- A cell is keyed by its config, its task and its repeat (1-based); the key is what makes a
  result unique, so a cell is recorded at most once however often it runs.
- The order is a shuffle seeded by the study's `seed`, so no config always runs first (or last)
  while the machine warms up or a provider slows down, and the same study deals the same order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["CellKey", "plan_cells"]


@dataclass(frozen=True, order=True)
class CellKey:
    config: str
    task: str
    repeat: int

    @property
    def label(self) -> str:
        return f"{self.config}/{self.task}/{self.repeat}"


def plan_cells(configs: Sequence[str], tasks: Sequence[str], repeats: int, seed: int) -> tuple[CellKey, ...]:
    """Every cell of the study, dealt in its seeded order."""
    cells = [
        CellKey(config, task, repeat)
        for repeat in range(1, repeats + 1)
        for task in tasks
        for config in configs
    ]
    random.Random(seed).shuffle(cells)
    return tuple(cells)
