"""Each kind's overview and each store's cost, with the two withheld figures."""

from __future__ import annotations

from console.scenario import multi_agent_run
from gg.console.cost import CostState
from gg.console.index import build_index
from gg.console.vocabulary import ModuleKind


def overviews():
    index = build_index("run", "completed", multi_agent_run())
    return index, {k.kind: k for k in index.kinds}


def test_a_kind_overview_counts_stores_holders_and_how_widely_they_are_shared():
    _, kinds = overviews()
    memories = kinds[ModuleKind.MEMORIES]
    assert len(memories.stores) == 4
    assert memories.holders == 5
    assert (memories.shared, memories.widest) == (1, 2)
    assert memories.running == 0  # every holder finished
    board = kinds[ModuleKind.BOARD]
    assert (len(board.stores), board.holders, board.shared, board.widest) == (1, 5, 1, 5)


def test_history_withholds_the_never_written_figure_and_the_others_count_it():
    _, kinds = overviews()
    assert kinds[ModuleKind.HISTORY].never_written is None
    assert kinds[ModuleKind.MEMORIES].never_written == 3
    assert kinds[ModuleKind.TASKS].never_written == 1
    assert kinds[ModuleKind.ARCHIVE].never_written == 2


def test_the_archive_has_no_context_band_rather_than_a_zero():
    _, kinds = overviews()
    archive = kinds[ModuleKind.ARCHIVE]
    assert archive.cost.state is CostState.NO_BAND
    assert archive.cost.label == "no context band"


def test_a_measured_zero_is_told_apart_from_a_cost_not_measured_yet():
    index, _ = overviews()
    memories = index.store("memories-1")
    assert memories is not None
    assert memories.cost.per_holder["impl.1"].latest == 300
    zero = memories.cost.per_holder["impl.2"]
    assert (zero.state, zero.latest, zero.label) == (CostState.MEASURED, 0, "measured zero")
    fork = index.store("memories-2")
    assert fork is not None
    assert fork.cost.per_holder["root.f1"].state is CostState.UNMEASURED
    assert fork.cost.per_holder["root.f1"].label == "not measured yet"


def test_the_cost_across_holders_sums_the_live_ones_only():
    index, kinds = overviews()
    tasks = index.store("tasks-0")
    assert tasks is not None
    assert tasks.live == ("root.1",)  # root handed it on
    assert tasks.cost.live_total.latest == 150
    assert kinds[ModuleKind.MEMORIES].cost.latest == 300
    assert kinds[ModuleKind.MEMORIES].windows_reporting == 3  # impl.1, impl.2, root.1
    assert kinds[ModuleKind.MEMORIES].average == 100


def test_a_window_costs_its_whole_breakdown():
    index, _ = overviews()
    history = index.store("history-1")
    assert history is not None
    assert history.cost.per_holder["impl.1"].latest == 1200  # System 900 + Memory 300


def test_a_store_every_holder_let_go_of_has_no_live_holder_to_cost():
    index, _ = overviews()
    dropped = index.store("memories-0")
    assert dropped is not None and dropped.live == ()
    assert dropped.cost.live_total.state is CostState.NO_HOLDER
    assert dropped.cost.live_total.label == "no live holder"
