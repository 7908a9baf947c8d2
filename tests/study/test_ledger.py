"""The study ledger, on both of the run store's databases: studies found by id, prefix or `latest`;
a cell finished at most once."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from gg.record.store import RunStore
from gg.study.cell import CellReport
from gg.study.check import CheckOutcome, CheckVerdict
from gg.study.figures import RunFigures
from gg.study.ledger import Ledger
from gg.study.plan import CellKey
from gg.study.rows import StudyLookupError, StudyRow
from gg.study.runner import new_study_id
from gg.telemetry.location import StoreLocation


def _study(study_id: str, created_at: str) -> StudyRow:
    return StudyRow(
        id=study_id, name="s", file="study.toml", fingerprint="f", configs='["a"]', tasks='["t"]', repeats=1,
        seed=0, cells=1, model=None, executor="local", created_at=created_at, updated_at=created_at,
        status="finished", pid=None, host=None,
    )  # fmt: skip


@pytest.fixture
def ledger(store_at: StoreLocation) -> Ledger:
    store = RunStore(store_at)
    store.close()
    ledger = Ledger(store_at)
    ledger.begin_study(_study("study-20261201-090000-aaaa", "2026-12-01T09:00:00.000Z"))
    ledger.begin_study(_study("study-20261201-100000-aaab", "2026-12-01T10:00:00.000Z"))
    return ledger


def test_a_study_is_found_by_its_id_a_unique_prefix_or_latest(ledger: Ledger) -> None:
    assert ledger.find_study("latest").id == "study-20261201-100000-aaab"
    assert ledger.find_study("study-20261201-090000-aaaa").id == "study-20261201-090000-aaaa"
    assert ledger.find_study("20261201-09").id == "study-20261201-090000-aaaa"


def test_an_ambiguous_or_unknown_reference_is_refused_by_name(ledger: Ledger) -> None:
    with pytest.raises(StudyLookupError, match="`study-2026` matches 2 studies"):
        ledger.find_study("study-2026")
    with pytest.raises(StudyLookupError, match="no study matches `nothing`"):
        ledger.find_study("nothing")


def test_a_cell_is_finished_at_most_once(ledger: Ledger) -> None:
    key = CellKey("a", "t", 1)
    report = CellReport(key, "run-1", (), "completed", CheckOutcome(CheckVerdict.SOLVED, 0), "here:1")
    study = "study-20261201-090000-aaaa"
    assert ledger.finish_cell(study, report, RunFigures("completed"), 1, "2026-12-01T09:00:01.000Z")
    again = CellReport(key, "run-2", (), "completed", CheckOutcome(CheckVerdict.FAILED, 1), "here:2")
    assert not ledger.finish_cell(study, again, RunFigures("completed"), 1, "2026-12-01T09:00:02.000Z")
    (row,) = ledger.cells(study)
    assert (row.run_id, row.verdict, row.solved) == ("run-1", "solved", True)


def test_a_study_id_is_sortable_by_its_start_and_ends_in_8_random_hex_digits() -> None:
    """Machines sharing one store start studies in the same second: 8 hex digits, as a run id."""
    moment = datetime(2026, 12, 1, 8, 47, tzinfo=UTC)
    ids = {new_study_id(lambda: moment) for _ in range(64)}
    assert len(ids) == 64
    assert all(re.fullmatch(r"study-20261201-084700-[0-9a-f]{8}", study_id) for study_id in ids)
