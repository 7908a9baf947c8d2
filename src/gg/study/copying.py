"""Studies moving between stores beside their runs (`gg store copy`).

Rules:
- each study of the source store that the target lacks is copied as the source holds it (its
  plan, status, times, driver and executor) with its finished cells; a study the target holds
  already gets only the cells it lacks, so copying twice adds nothing;
- a cell's run is copied with the runs, never here; the attempts of cells that never finished
  are not copied, since they name runs cut short that the study's own store discards on resume;
- a source holding no study (a folder of events files, a store no study wrote to) copies none,
  and makes no study table in the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from gg.record.reader import held_at
from gg.study.ledger import Ledger
from gg.study.rows import StudyReads
from gg.telemetry.dialect import dialect_of
from gg.telemetry.location import StoreLocation


@dataclass(frozen=True)
class StudiesCopied:
    """What a copy wrote: studies new to the target, their cells and the cells added to studies
    it held, and the studies it held whole."""

    studies: int = 0
    cells: int = 0
    skipped: int = 0


def copy_studies(source: StoreLocation, target: StoreLocation) -> StudiesCopied:
    """Copy every study of the store at `source` into the store at `target`, oldest first."""
    held = held_at(source)
    try:
        with held.connection() as db:
            reads = StudyReads(db, source.path, dialect=dialect_of(source.backend), where=source.shown)
            if not reads.holds_studies():
                return StudiesCopied()
            found = [(study, reads.cells(study.id)) for study in reversed(reads.studies(limit=None))]
    finally:
        held.close()
    studies = cells = skipped = 0
    with Ledger(target) as ledger:
        for study, its_cells in found:
            new, written = ledger.copy_study(study, its_cells)
            studies, cells = studies + new, cells + written
            skipped += not new and written == 0
    return StudiesCopied(studies, cells, skipped)
