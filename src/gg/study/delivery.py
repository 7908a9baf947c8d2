"""What an executor hands the driver for each cell, and the shape every executor has.

An executor runs cells somewhere (local worker processes, Ray tasks) and yields one delivery per
cell: `Delivered` with the worker's report, or `Lost` when the cell's workers died more often
than its retries allow. A worker that dies mid-cell costs that cell one retry; the executor never
delivers a cell twice, and the driver drops a second delivery of a key all the same. The driver
enters `joined()` before it records anything of the study, so an executor that cannot reach where
its cells would run (a Ray cluster nowhere to be found) refuses the study with nothing recorded.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from gg.study.cell import CellReport, CellSpec

__all__ = ["DEFAULT_MAX_RETRIES", "Delivered", "Delivery", "Executor", "Lost"]

DEFAULT_MAX_RETRIES = 2  # a cell whose worker dies is run again at most this often


@dataclass(frozen=True)
class Delivered:
    """A finished cell; `attempts` counts its runs (None where the executor cannot tell)."""

    report: CellReport
    attempts: int | None = 1


@dataclass(frozen=True)
class Lost:
    spec: CellSpec
    reason: str
    attempts: int


Delivery = Delivered | Lost


class Executor(Protocol):
    """Runs cells and yields their deliveries as they finish; stops its workers on the way out."""

    name: str

    def joined(self) -> AbstractContextManager[None]:
        """Where the cells run, reached for as long as the block lasts; raises when it cannot be."""
        ...

    def run(self, specs: Sequence[CellSpec]) -> Iterator[Delivery]:
        """The cells' deliveries as they finish (inside `joined()`)."""
        ...
