"""The run store's check on open for writing: SQLite's `quick_check` on a real store, bounded in
time, and what a store it stopped short of is told with."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from gg.record.store import RunStore
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import Log
from gg.telemetry.integrity import StoreDamaged, check_store
from gg.telemetry.store import RunStoreError

from .sample import RUN_ID, StepClock


def _store_of(path: Path, events: int) -> None:
    store = RunStore(path)
    telemetry = Telemetry(RUN_ID, [store], clock=StepClock())
    for number in range(events):
        telemetry.emit("root", 1 + number // 10, Log(level="info", message=f"line {number} " + "x" * 200))
    telemetry.close()


def test_a_sound_store_is_checked_whole_within_the_bound(tmp_path: Path) -> None:
    _store_of(tmp_path / "runs.db", 50)
    store = RunStore(tmp_path / "runs.db")
    assert store.check is not None and store.check.finished and store.check.note is None
    store.close()


def test_a_check_that_reaches_its_bound_stops_and_accepts_the_store_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    _store_of(path, 3000)
    ticks = itertools.count(0.0, 10.0)  # each look at the clock is ten seconds later
    with sqlite3.connect(path) as db:
        checked = check_store(db, path, bound_secs=1.0, clock=lambda: next(ticks))
    assert not checked.finished
    assert checked.note == (
        f"the run store {path} was checked in part: SQLite's quick_check stops after 1 s and found "
        "no damage in what it read"
    )


def test_a_file_that_is_not_a_database_is_damaged_naming_the_way_out(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    (tmp_path / "runs").mkdir()  # the runs' events files lie beside it: it is rebuilt from them
    path.write_bytes(b"not a database, not at all" * 200)
    with sqlite3.connect(path) as db, pytest.raises(StoreDamaged) as damaged:
        check_store(db, path)
    assert str(damaged.value) == (
        "it is not an SQLite database, or one damaged (SQLite says: file is not a database); rebuild it "
        f"from its runs' events files with: gg store rebuild --store {path}"
    )
    with pytest.raises(RunStoreError, match="or one damaged"):
        RunStore(path)


def test_a_file_with_no_runs_beside_it_is_not_offered_a_rebuild(tmp_path: Path) -> None:
    path = tmp_path / "passwd"
    path.write_text("root:x:0:0:root:/root:/bin/bash\n")
    with sqlite3.connect(path) as db, pytest.raises(StoreDamaged) as damaged:
        check_store(db, path)
    assert "store rebuild" not in str(damaged.value)
    assert str(damaged.value).endswith(
        f"no runs' events files lie beside it ({tmp_path / 'runs'}): is it a gg run store?"
    )
