"""The Query page's model over a real store: its chart of a chosen column (bars named by another
column, a column holding no number refused in words, bars past the cap counted), a store not
made yet, and the page answering only the console's Host names."""

from __future__ import annotations

from pathlib import Path

from console.conftest import console_client
from gg.console.query_page import MAX_BARS, query_page
from gg.record.store import RunStore
from telemetry.sample import emit_sample_run

COUNTED = (
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 250)"
    " SELECT x, x * 2 AS y FROM c"
)


def _store(tmp_path: Path) -> Path:
    path = tmp_path / "runs.db"
    written = RunStore(path)
    emit_sample_run([written])
    written.close()
    return path


def test_a_column_is_drawn_one_bar_per_row_named_by_the_first_other_column(tmp_path: Path) -> None:
    sql = "SELECT turn, input_tokens FROM turns ORDER BY turn"
    page = query_page(_store(tmp_path), {"sql": sql, "chart": "input_tokens"})
    assert page.error is None and page.numeric == ("turn", "input_tokens")
    assert page.plot is not None and page.plot.chart is not None
    assert [bar.label for bar in page.plot.chart.bars] == ["1", "2", "3"]
    assert page.plot.label == "turn"


def test_a_column_holding_no_number_draws_no_chart_and_says_why(tmp_path: Path) -> None:
    page = query_page(_store(tmp_path), {"sql": "SELECT run_id, name FROM runs", "chart": "name"})
    assert page.plot is not None and page.plot.chart is None
    assert page.plot.reason == "name holds no number to draw"


def test_bars_past_the_cap_are_counted_not_drawn(tmp_path: Path) -> None:
    page = query_page(_store(tmp_path), {"sql": COUNTED, "chart": "y", "label": "x"})
    assert page.plot is not None and page.plot.chart is not None
    assert (len(page.plot.chart.bars), page.plot.left_out) == (MAX_BARS, 250 - MAX_BARS)


def test_a_store_not_made_yet_is_said_and_not_made(tmp_path: Path) -> None:
    page = query_page(tmp_path / "runs.db", {"sql": "SELECT 1"})
    assert page.error == f"no run store at {tmp_path / 'runs.db'} yet"
    assert not (tmp_path / "runs.db").exists()


def test_the_page_answers_its_own_host_only_and_keeps_the_security_headers(tmp_path: Path) -> None:
    client = console_client(_store(tmp_path))
    answered = client.get("/query", params={"sql": "SELECT COUNT(*) AS n FROM runs"})
    assert answered.status_code == 200
    assert "script-src 'self'" in answered.headers["content-security-policy"]
    assert '<td class="num">1</td>' in answered.text
    misdirected = client.get("/query", params={"sql": "SELECT 1"}, headers={"host": "evil.example"})
    assert misdirected.status_code == 421
