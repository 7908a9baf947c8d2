"""Studies moving between stores beside their runs (`gg store copy`).

Rules:
- each study of the source store that the target lacks is copied as the source holds it (its
  plan, status, times, driver and executor) with its finished cells; a study the target holds
  already gets only the cells it lacks, so copying twice adds nothing;
- a study the target holds takes the source's status when the source's is newer (`newer`): the
  source holds every cell the target holds and more, or its `updated_at` is later; its
  `updated_at` is then the later of the two. A study that took a status is not counted skipped;
- a cell's run is copied with the runs, never here; the attempts of cells that never finished
  are not copied, since they name runs cut short that the study's own store discards on resume;
- a source holding no study (a folder of events files, a store no study wrote to) copies none,
  and makes no study table in the target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gg.record.reader import held_at
from gg.study.ledger import Ledger
from gg.study.rows import CellRow, StudyReads, StudyRow
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
        there = {study.id: study for study in ledger.studies(limit=None)}
        for study, its_cells in found:
            before = there.get(study.id)
            held_cells = [] if before is None else ledger.cells(study.id)
            new, written = ledger.copy_study(study, its_cells)
            carried = before is not None and newer(study, its_cells, before, held_cells)
            if carried and before is not None:
                ledger.end_study(study.id, study.status, max(study.updated_at, before.updated_at))
            studies, cells = studies + new, cells + written
            skipped += not new and written == 0 and not carried
    return StudiesCopied(studies, cells, skipped)


def newer(
    source: StudyRow, source_cells: Sequence[CellRow], held: StudyRow, held_cells: Sequence[CellRow]
) -> bool:
    """Whether the source's study is newer than the one held (see the module rules)."""
    keys, held_keys = {cell.key for cell in source_cells}, {cell.key for cell in held_cells}
    return held_keys < keys or source.updated_at > held.updated_at
