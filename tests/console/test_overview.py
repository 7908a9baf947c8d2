"""Each kind's overview and each store's cost, with the two withheld figures, on the crew run gg
recorded (its costs are the bands of the `context_breakdown` events gg emitted)."""

from __future__ import annotations

import pytest

from console.conftest import Records, written_until
from gg.console.cost import CostState
from gg.console.index import RunIndex, build_index
from gg.console.overview import KindOverview
from gg.console.vocabulary import ModuleKind


def overviews(records: Records) -> tuple[RunIndex, dict[ModuleKind, KindOverview]]:
    index = build_index("run", "completed", records)
    return index, {k.kind: k for k in index.kinds}


def band(records: Records, agent: str, name: str | None = None) -> int:
    """A band of `agent`'s last breakdown (None: the whole window)."""
    last = [e for e in records if e["type"] == "context_breakdown" and e["agentId"] == agent][-1]
    return sum(b["tokens"] for b in last["bands"] if name is None or b["band"] == name)


def test_a_kind_overview_counts_stores_holders_and_how_widely_they_are_shared(crew_records: Records):
    _, kinds = overviews(crew_records)
    memories = kinds[ModuleKind.MEMORIES]
    assert len(memories.stores) == 5
    assert memories.holders == 7
    assert (memories.shared, memories.widest) == (1, 3)  # the workers' store
    assert memories.running == 0  # every holder finished
    board = kinds[ModuleKind.BOARD]
    assert (len(board.stores), board.holders, board.shared, board.widest) == (1, 7, 1, 7)


def test_history_withholds_the_never_written_figure_and_the_others_count_it(crew_records: Records):
    _, kinds = overviews(crew_records)
    assert kinds[ModuleKind.HISTORY].never_written is None
    assert kinds[ModuleKind.MEMORIES].never_written == 1  # the inspector's
    assert kinds[ModuleKind.TASKS].never_written == 0
    assert kinds[ModuleKind.ARCHIVE].never_written == 1  # the fork's copy, taken before any archiving


def test_the_archive_has_no_context_band_rather_than_a_zero(crew_records: Records):
    _, kinds = overviews(crew_records)
    archive = kinds[ModuleKind.ARCHIVE]
    assert archive.cost.state is CostState.NO_BAND
    assert archive.cost.label == "no context band"


def test_a_measured_zero_is_told_apart_from_a_cost_not_measured_yet(crew_records: Records):
    index, _ = overviews(crew_records)
    memories = index.store("memories-1")
    assert memories is not None
    assert memories.cost.per_holder["root.3"].latest == band(crew_records, "root.3", "Memory") > 0
    zero = memories.cost.per_holder["root.1"]  # it opened before anything was noted
    assert (zero.state, zero.latest, zero.label) == (CostState.MEASURED, 0, "measured zero")
    # while the run is written: the fork opened, and has not sent its first request yet
    index, _ = overviews(written_until(crew_records, "context_breakdown", "root.f1"))
    fork = index.store("memories-2")
    assert fork is not None
    assert fork.cost.per_holder["root.f1"].state is CostState.UNMEASURED
    assert fork.cost.per_holder["root.f1"].label == "not measured yet"


def test_the_cost_across_holders_sums_the_live_ones_only(crew_records: Records):
    index, kinds = overviews(crew_records)
    tasks = index.store("tasks-0")
    assert tasks is not None
    assert tasks.live == ("root@2",)  # root handed it on
    assert tasks.cost.live_total.latest == band(crew_records, "root@2", "TaskList")
    assert kinds[ModuleKind.MEMORIES].cost.latest == band(crew_records, "root.3", "Memory")
    # every live holder's window reported: the workers, the fork, the inspector, the closer
    assert kinds[ModuleKind.MEMORIES].windows_reporting == 6
    assert kinds[ModuleKind.MEMORIES].average == pytest.approx(band(crew_records, "root.3", "Memory") / 6)


def test_a_window_costs_its_whole_breakdown(crew_records: Records):
    index, _ = overviews(crew_records)
    history = index.store("history-4")
    assert history is not None
    assert history.cost.per_holder["root.3"].latest == band(crew_records, "root.3") == 1200  # as billed


def test_a_store_every_holder_let_go_of_has_no_live_holder_to_cost(crew_records: Records):
    index, _ = overviews(crew_records)
    dropped = index.store("memories-0")
    assert dropped is not None and dropped.live == ()
    assert dropped.cost.live_total.state is CostState.NO_HOLDER
    assert dropped.cost.live_total.label == "no live holder"
