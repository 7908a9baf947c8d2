"""The runs page's rows, their figures summed by the store, and the filters."""

from __future__ import annotations

from pathlib import Path

from console.scenario import RUN_ID
from gg.console.listing import listed_runs
from gg.console.source import RunSource


def test_the_store_sums_each_runs_figures_once_per_event_count(multi_store: Path):
    source = RunSource(multi_store)
    rows = source.list_runs()
    figures = source.figures(rows)[RUN_ID]
    assert (figures.agents, figures.programs, figures.errors) == (5, 5, 1)
    assert figures.tokens == sum(1000 + 100 * t + 50 + t for t in (1, 1, 1, 2, 3))
    assert figures.cost_usd is not None and round(figures.cost_usd, 6) == 0.01
    assert source.figures(rows)[RUN_ID] is figures  # kept while the count holds


def test_runs_are_filtered_by_status_and_by_name_or_id(multi_store: Path):
    source = RunSource(multi_store)
    rows = source.list_runs()
    statuses = {row.id: row.status for row in rows}
    figures = source.figures(rows)
    assert [r.row.id for r in listed_runs(rows, statuses, figures, status="completed")] == [RUN_ID]
    assert listed_runs(rows, statuses, figures, status="running") == []
    assert [r.row.name for r in listed_runs(rows, statuses, figures, name="PLAN")] == ["planning"]
    assert [r.row.id for r in listed_runs(rows, statuses, figures, name="mult")] == [RUN_ID]
    (listed,) = listed_runs(rows, statuses, figures)
    assert listed.duration_ms == 1234.0 and not listed.live
