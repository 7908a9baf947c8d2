"""`gg store copy SRC DST`: SQLite into PostgreSQL, PostgreSQL into SQLite, an NDJSON folder into
either; copying twice adds nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.store import RunStore
from gg.study.cell import CellReport
from gg.study.check import CheckOutcome, CheckVerdict
from gg.study.figures import RunFigures
from gg.study.ledger import Ledger
from gg.study.plan import CellKey
from gg.study.rows import StudyRow
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import RunStarted
from gg.telemetry.layout import store_path
from gg.telemetry.location import StoreLocation, parse_store_url
from gg.telemetry.ndjson import NdjsonSink
from support.postgres_server import PostgresServer

from .sample import RUN_ID, emit_sample_run


def copy(source: str, target: str) -> str:
    result = CliRunner().invoke(main, ["store", "copy", source, target])
    assert result.exit_code == 0, result.output
    return result.output


def named(where: StoreLocation) -> str:
    return str(where.path) if where.url is None else where.url


def two_runs(where: StoreLocation) -> list[list[dict[str, object]]]:
    store = RunStore(where)
    emit_sample_run([store, NdjsonSink(where.path.parent.parent, RUN_ID)])
    Telemetry("run-20261201-000000-00000002", [store]).emit(
        "root", 0, RunStarted(name="b", config_path="", workspace="", model="m", language="python", limits={})
    )
    kept = [store.events(RUN_ID), store.events("run-20261201-000000-00000002")]
    store.close()
    return kept


@pytest.fixture
def other(backend: str, postgres: PostgresServer, tmp_path: Path) -> StoreLocation:
    """A store of the other backend than the test's."""
    if backend == "sqlite":
        return parse_store_url(postgres.fresh_database(), base=tmp_path / "other")
    return parse_store_url(tmp_path / "other", base=tmp_path / "other")


def test_copying_a_store_into_the_other_backend_keeps_every_run_and_twice_adds_nothing(
    store_at: StoreLocation, other: StoreLocation
) -> None:
    kept = two_runs(store_at)
    said = copy(named(store_at), named(other))
    assert said.startswith("gg store copy: copied 2 runs (26 events) into ")
    assert said.rstrip().endswith("skipped 0 runs already there (0 events)")
    assert "s3cret" not in said
    again = copy(named(store_at), named(other))
    assert "copied 0 runs (0 events)" in again and "skipped 2 runs already there (26 events)" in again
    copied = RunStore(other, create=False)
    assert [copied.events(row.id) for row in reversed(copied.list_runs())] == kept
    assert copied.find_run(RUN_ID).status == "completed"


def test_an_ndjson_folder_is_copied_into_a_store_and_completes_a_run_cut_short(
    store_at: StoreLocation, tmp_path: Path
) -> None:
    source = tmp_path / "laptop"
    emit_sample_run([NdjsonSink(source, RUN_ID)])
    store = RunStore(store_at)
    emit_sample_run([store], finish=False)  # the store kept the run up to a point, the file all of it
    cut = len(store.events(RUN_ID))
    store.close()
    said = copy(str(source / ".gg" / "runs"), named(store_at))
    assert (
        cut == 17 and "copied 1 run (8 events)" in said and "skipped 0 runs already there (17 events)" in said
    )
    whole = RunStore(store_at, create=False)
    assert whole.find_run(RUN_ID).status == "completed" and whole.find_run(RUN_ID).events == 25
    assert "skipped 1 run already there" in copy(str(source), named(store_at))


@pytest.mark.parametrize("given", [".gg", "."])
def test_a_gg_folder_holding_a_store_completes_a_run_its_events_file_holds_more_of(
    store_at: StoreLocation, tmp_path: Path, given: str
) -> None:
    laptop = tmp_path / "laptop"
    emit_sample_run([NdjsonSink(laptop, RUN_ID)])  # the run's local copy holds all of it
    local = RunStore(parse_store_url(laptop, base=laptop))
    emit_sample_run([local], finish=False)  # its runs.db, 17 of its 25 events
    local.close()
    elsewhere = "run-20261201-000000-00000002"  # a run recorded elsewhere: only its local copy here
    Telemetry(elsewhere, [NdjsonSink(laptop, elsewhere)]).emit(
        "root", 0, RunStarted(name="b", config_path="", workspace="", model="m", language="python", limits={})
    )
    said = copy(str(laptop / given), named(store_at))
    assert "copied 2 runs (26 events)" in said, said
    whole = RunStore(store_at, create=False)
    assert whole.find_run(RUN_ID).status == "completed" and whole.find_run(RUN_ID).events == 25
    assert whole.find_run(elsewhere).events == 1
    assert "skipped 2 runs already there (26 events)" in copy(str(laptop / given), named(store_at))


def test_an_unreadable_events_file_is_named_and_the_others_copied(tmp_path: Path) -> None:
    emit_sample_run([NdjsonSink(tmp_path, RUN_ID)])
    broken = tmp_path / ".gg" / "runs" / "run-broken" / "events.ndjson"
    broken.parent.mkdir()
    broken.write_text("not json\n{}\n")
    result = CliRunner().invoke(main, ["store", "copy", str(tmp_path / ".gg"), str(tmp_path / "into.db")])
    assert result.exit_code == 1
    assert "copied 1 run (25 events)" in result.output and "line 1 is not JSON" in result.output
    assert not store_path(tmp_path).exists()


def test_a_source_that_cannot_be_read_leaves_no_target_behind(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "dir" / "d.db"
    result = CliRunner().invoke(main, ["store", "copy", str(tmp_path / "none.db"), f"sqlite:///{target}"])
    assert result.exit_code == 1 and "no run store at" in result.output
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(bytes(range(256)) * 64)
    damaged = CliRunner().invoke(main, ["store", "copy", str(garbage), f"sqlite:///{target}"])
    assert damaged.exit_code == 1
    assert not target.parent.exists()


STUDY_ID = "study-20261201-090000-ab12cd34"


def _study_with_cells(where: StoreLocation, cells: int) -> None:
    """A finished study of `cells` cells in the store at `where`, beside its runs."""
    with Ledger(where) as ledger:
        ledger.begin_study(
            StudyRow(
                id=STUDY_ID, name="arms", file="study.toml", fingerprint="f",
                configs='["js", "py"]', tasks='["t"]', repeats=2, seed=7, cells=4, model=None,
                executor="local", created_at="2026-12-01T09:00:00.000Z",
                updated_at="2026-12-01T09:05:00.000Z", status="finished", pid=None, host=None,
            )
        )  # fmt: skip
        for n, (config, repeat) in enumerate([("js", 1), ("js", 2), ("py", 1), ("py", 2)][:cells]):
            key = CellKey(config, "t", repeat)
            check = CheckOutcome(CheckVerdict.SOLVED if n % 2 == 0 else CheckVerdict.FAILED, n % 2)
            report = CellReport(key, f"run-20261201-09000{n}-0000000{n}", (), "completed", check, "here:1")
            ledger.finish_cell(STUDY_ID, report, RunFigures("completed"), 1, "2026-12-01T09:01:00.000Z")


def test_a_stores_studies_are_copied_with_their_cells_and_twice_adds_nothing(
    store_at: StoreLocation, other: StoreLocation
) -> None:
    two_runs(store_at)
    _study_with_cells(store_at, 3)
    said = copy(named(store_at), named(other))
    assert "gg store copy: copied 1 study and 3 cells; skipped 0 studies already there" in said
    with Ledger(store_at) as source, Ledger(other) as target:
        assert target.studies(None) == source.studies(None)
        assert target.cells(STUDY_ID) == source.cells(STUDY_ID)
    again = copy(named(store_at), named(other))
    assert "copied 0 studies and 0 cells; skipped 1 study already there" in again


def test_a_study_the_target_holds_in_part_gets_the_cells_it_lacks(
    store_at: StoreLocation, other: StoreLocation
) -> None:
    two_runs(store_at)
    _study_with_cells(other, 2)
    _study_with_cells(store_at, 4)
    said = copy(named(store_at), named(other))
    assert "copied 0 studies and 2 cells; skipped 0 studies already there" in said
    with Ledger(other) as target:
        assert [cell.key for cell in target.cells(STUDY_ID)] == [
            CellKey("js", "t", 1), CellKey("js", "t", 2), CellKey("py", "t", 1), CellKey("py", "t", 2)
        ]  # fmt: skip


def test_a_folder_of_events_files_copies_no_study_and_makes_no_study_table(tmp_path: Path) -> None:
    emit_sample_run([NdjsonSink(tmp_path / "laptop", RUN_ID)])
    said = copy(str(tmp_path / "laptop"), str(tmp_path / "into.db"))
    assert "copied 1 run (25 events)" in said and "stud" not in said
    with sqlite3.connect(tmp_path / "into.db") as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE name LIKE 'stud%'").fetchall() == []


def _status(where: StoreLocation) -> tuple[str, str]:
    with Ledger(where) as ledger:
        (study,) = ledger.studies(None)
    return study.status, study.updated_at


def test_a_study_s_newer_status_is_carried_and_an_older_one_never(
    store_at: StoreLocation, other: StoreLocation
) -> None:
    two_runs(store_at)
    _study_with_cells(other, 4)
    _study_with_cells(store_at, 4)
    with Ledger(other) as held:
        held.end_study(STUDY_ID, "interrupted", "2026-12-01T09:02:00.000Z")
    with Ledger(store_at) as source:
        source.end_study(STUDY_ID, "finished", "2026-12-01T09:03:00.000Z")  # later: the newer
    copy(named(store_at), named(other))
    assert _status(other) == ("finished", "2026-12-01T09:03:00.000Z")
    with Ledger(other) as held:
        held.end_study(STUDY_ID, "failed", "2026-12-01T09:04:00.000Z")  # the target's is newer now
    copy(named(store_at), named(other))
    assert _status(other) == ("failed", "2026-12-01T09:04:00.000Z")


def test_a_study_whose_source_holds_more_cells_carries_its_status(
    store_at: StoreLocation, other: StoreLocation
) -> None:
    two_runs(store_at)
    _study_with_cells(other, 2)
    with Ledger(other) as held:
        held.end_study(STUDY_ID, "interrupted", "2026-12-01T09:30:00.000Z")  # cut, on a clock ahead
    _study_with_cells(store_at, 4)  # resumed elsewhere and finished: every cell the target holds and more
    said = copy(named(store_at), named(other))
    assert "copied 0 studies and 2 cells" in said
    assert _status(other) == ("finished", "2026-12-01T09:30:00.000Z")
