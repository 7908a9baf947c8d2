"""The runs page's rows, their figures summed by the store, and the filters, on the crew run gg
recorded."""

from __future__ import annotations

from console.conftest import Recorded
from gg.console.listing import listed_runs
from gg.console.source import RunSource

# the crew journal's usage, reply by reply: the planner's five, the fork's, three workers', the
# inspector's and the closer's
JOURNAL_TOKENS = (
    (2100 + 210) + (2600 + 160) + (3050 + 90) + (3200 + 140) + (3400 + 120)
    + (1900 + 80) + 3 * (1200 + 70) + (900 + 30) + (3800 + 110)
)  # fmt: skip


def test_the_store_sums_each_runs_figures_once_per_event_count(crew_run: Recorded):
    source = RunSource(crew_run.store)
    rows = source.list_runs()
    figures = source.figures(rows)[crew_run.run_id]
    assert (figures.agents, figures.programs, figures.errors) == (7, 11, 1)
    assert figures.tokens == JOURNAL_TOKENS == 25_700
    assert figures.cost_usd is None  # a replayed model states no price
    assert source.figures(rows)[crew_run.run_id] is figures  # kept while the count holds


def test_runs_are_filtered_by_status_and_by_name_or_id(crew_run: Recorded):
    source = RunSource(crew_run.store)
    rows = source.list_runs()
    statuses = {row.id: row.status for row in rows}
    figures = source.figures(rows)
    assert [r.row.id for r in listed_runs(rows, statuses, figures, status="completed")] == [crew_run.run_id]
    assert listed_runs(rows, statuses, figures, status="running") == []
    assert [r.row.name for r in listed_runs(rows, statuses, figures, name="PARTS")] == ["parts-count"]
    suffix = crew_run.run_id[-4:]
    assert [r.row.id for r in listed_runs(rows, statuses, figures, name=suffix)] == [crew_run.run_id]
    (listed,) = listed_runs(rows, statuses, figures)
    assert listed.duration_ms is not None and listed.duration_ms > 0 and not listed.live
