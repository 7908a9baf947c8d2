"""The one reader of a run store gives back every event as a record equal to what was written, and
every reader (`gg show`, the console) reads a stored event that is no JSON object as `unreadable`:
the rest of the run is still read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from console.conftest import console_client
from gg.cli import main
from gg.record.envelope import Record
from gg.record.reader import open_reader
from gg.record.store import RunStore
from gg.telemetry.emitter import CollectingSink
from gg.telemetry.layout import store_path
from telemetry.sample import RUN_ID, emit_sample_run


def _recorded(base: Path) -> list[dict[str, object]]:
    kept, store = CollectingSink(), RunStore.at(base)
    emit_sample_run([kept, store])
    store.close()
    return kept.wire()


def test_the_reader_gives_back_every_event_as_a_record_equal_to_what_was_written(tmp_path: Path) -> None:
    written = _recorded(tmp_path)
    reader = open_reader(store_path(tmp_path))
    try:
        read = reader.events(RUN_ID)
        assert read == written and all(isinstance(record, Record) for record in read)
        assert [record.turn for record in read] == [record["turn"] for record in written]
        assert reader.find_run("latest").id == RUN_ID
    finally:
        reader.close()


def test_an_event_stored_as_no_json_object_is_read_as_unreadable_by_gg_show_and_the_console(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _recorded(tmp_path)
    with sqlite3.connect(store_path(tmp_path)) as db:
        db.execute("UPDATE events SET json = 'garbage' WHERE run_id = ? AND seq = 15", (RUN_ID,))  # a log
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(main, ["show", RUN_ID])
    assert shown.exit_code == 0, shown.output
    assert "turn 3" in shown.output and "Audit done: 2 issues." in shown.output
    reader = open_reader(store_path(tmp_path))
    try:
        assert [r.type for r in reader.events(RUN_ID)].count("unreadable") == 1
    finally:
        reader.close()
    page = console_client(store_path(tmp_path)).get(f"/runs/{RUN_ID}/instances")
    assert page.status_code == 200
