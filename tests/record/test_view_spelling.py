"""The view spelling renders each construct the views use in SQLite's spelling and in PostgreSQL's; the
SQLite spelling runs on a real SQLite, and every view's SELECT is rendered for both backends."""

from __future__ import annotations

import sqlite3

import pytest

from gg.record.view_spelling import POSTGRESQL_SPELLING as POSTGRESQL
from gg.record.view_spelling import SQLITE_SPELLING as SQLITE
from gg.record.views import VIEWS


def test_a_json_field_is_spelled_for_each_backend() -> None:
    assert SQLITE.text("e.json", "usage", "inputTokens") == "json_extract(e.json, '$.usage.inputTokens')"
    assert POSTGRESQL.text("e.json", "usage", "inputTokens") == "(e.json::jsonb #>> '{usage,inputTokens}')"
    assert SQLITE.integer("e.json", "turn") == "CAST(json_extract(e.json, '$.turn') AS INTEGER)"
    assert POSTGRESQL.integer("e.json", "turn") == "CAST((e.json::jsonb #>> '{turn}') AS BIGINT)"
    assert SQLITE.real("e.json", "durationMs") == "CAST(json_extract(e.json, '$.durationMs') AS REAL)"
    assert (
        POSTGRESQL.real("e.json", "durationMs")
        == "CAST((e.json::jsonb #>> '{durationMs}') AS DOUBLE PRECISION)"
    )
    assert SQLITE.flag("e.json", "ok") == "CAST(json_extract(e.json, '$.ok') AS INTEGER)"
    assert POSTGRESQL.flag("e.json", "ok") == (
        "CASE (e.json::jsonb #>> '{ok}') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END"
    )


def test_arrays_places_tables_text_and_time_are_spelled_for_each_backend() -> None:
    assert SQLITE.elements("e.json", "links", "l") == "json_each(e.json, '$.links') AS l"
    assert POSTGRESQL.elements("e.json", "links", "l") == (
        "jsonb_array_elements(e.json::jsonb -> 'links') WITH ORDINALITY AS l (value, key)"
    )
    assert (SQLITE.position("l"), POSTGRESQL.position("l")) == ("l.key", "(l.key - 1)")
    assert (SQLITE.table("events"), POSTGRESQL.table("events")) == ("main.events", "public.events")
    assert (SQLITE.find("t", "':'"), POSTGRESQL.find("t", "':'")) == ("instr(t, ':')", "strpos(t, ':')")
    assert SQLITE.millis_between("a", "b") == "ROUND((julianday(b) - julianday(a)) * 86400000.0)"
    assert POSTGRESQL.millis_between("a", "b") == (
        "ROUND(EXTRACT(EPOCH FROM (CAST(b AS TIMESTAMPTZ) - CAST(a AS TIMESTAMPTZ))) * 1000)"
    )
    assert SQLITE.view("runs", "SELECT 1") == "CREATE TEMP VIEW runs AS SELECT 1"
    assert POSTGRESQL.view("runs", "SELECT 1") == "CREATE OR REPLACE TEMP VIEW runs AS SELECT 1"


def test_sqlite_spellings_answer_on_a_real_sqlite() -> None:
    db = sqlite3.connect(":memory:")
    record = """'{"ok": true, "bad": false, "usage": {"inputTokens": 7}, "links": [{"a": 1}, {"a": 2}]}'"""
    between = SQLITE.millis_between("'2026-12-02T01:35:38.805Z'", "'2026-12-02T01:35:39.250Z'")
    row = db.execute(
        f"SELECT {SQLITE.flag(record, 'ok')}, {SQLITE.flag(record, 'bad')}, {SQLITE.flag(record, 'none')},"
        f" {SQLITE.integer(record, 'usage', 'inputTokens')}, {between}"
    ).fetchone()
    assert row == (1, 0, None, 7, 445.0)
    each = SQLITE.elements(record, "links", "l")
    links = db.execute(
        f"SELECT {SQLITE.position('l')}, {SQLITE.integer('l.value', 'a')} FROM {each}"
    ).fetchall()
    assert links == [(0, 1), (1, 2)]


def test_a_key_that_is_not_a_plain_name_is_refused() -> None:
    with pytest.raises(ValueError, match="not a plain SQL name"):
        POSTGRESQL.text("e.json", "a}', '{b")
    with pytest.raises(ValueError, match="not a plain SQL name"):
        SQLITE.table("runs; DROP TABLE runs")


def test_every_view_renders_for_both_backends_with_no_spelling_of_the_other() -> None:
    for view in VIEWS:
        sqlite, postgres = view.select(SQLITE), view.select(POSTGRESQL)
        assert "jsonb" not in sqlite and "public." not in sqlite, view.name
        assert "json_extract" not in postgres and "json_each" not in postgres and "main." not in postgres
        assert "julianday" not in postgres and "instr(" not in postgres, view.name


def test_the_views_are_spelled_for_the_store_s_one_backend_enum() -> None:
    from gg.record.view_spelling import spelling_of
    from gg.telemetry.location import Backend

    assert spelling_of(Backend.SQLITE).table("events") == "main.events"
    assert spelling_of(Backend.POSTGRESQL).table("events") == "public.events"
