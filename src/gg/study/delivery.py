"""What an executor hands the driver for each cell, and the shape every executor has.

An executor runs cells somewhere (local worker processes, Ray tasks) and yields one delivery per
cell: `Delivered` with the worker's report, or `Lost` when the cell's workers died more often
than its retries allow. A worker that dies mid-cell costs that cell one retry; the executor never
delivers a cell twice, and the driver drops a second delivery of a key all the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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

    def run(self, specs: Sequence[CellSpec]) -> Iterator[Delivery]: ...
