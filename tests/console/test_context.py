"""Reported context breakdowns, read tolerantly, and the pictures drawn from them."""

from __future__ import annotations

from console.conftest import Records
from gg.console.charts import agent_tree, context_bands, dependency_graph, nice_top, stacked
from gg.console.context import read_breakdown, reported_breakdowns
from gg.record.agents import fold_agents
from gg.state.window.breakdown import breakdown
from gg.telemetry.breakdown import ContextBand


def test_a_reported_breakdown_is_read_per_agent_and_turn_in_its_own_unit(crew_records: Records):
    reported = reported_breakdowns(crew_records)
    root = reported["root"]
    assert sorted(root) == [1, 2, 3, 4, 5]
    (second,) = [
        e
        for e in crew_records
        if e["type"] == "context_breakdown" and e["agentId"] == "root" and e["turn"] == 2
    ]
    assert root[2].measured and root[2].unit == "tokens"
    assert root[2].band("TaskList") == next(b["tokens"] for b in second["bands"] if b["band"] == "TaskList")
    assert root[2].band("Memory") is None  # not reported: absent, not zero
    assert root[2].total == 2600  # the request's input tokens, as billed


def test_a_band_reported_as_zero_is_a_measurement():
    turn = read_breakdown(1, {"bands": [{"band": "Skill", "tokens": 0}], "unit": "tokens"})
    assert turn.band("Skill") == 0 and turn.band("Memory") is None


def test_a_breakdown_may_state_its_bands_as_a_mapping_and_its_unit_in_characters():
    turn = read_breakdown(4, {"bands": {"System": 900, "Memory": 20}, "unit": "chars", "windowLimit": 128000})
    assert (turn.unit, turn.total, turn.limit) == ("chars", 920, 128000)


def test_the_breakdown_gg_emits_is_read_in_the_unit_it_states():
    chars = {ContextBand.SYSTEM: 300, ContextBand.SKILL: 100}
    measured = read_breakdown(2, {"type": "context_breakdown", **breakdown(chars, 100).to_wire()})
    assert (measured.unit, measured.band("System"), measured.band("Skill"), measured.total) == (
        "tokens",
        75,
        25,
        100,
    )
    counted = read_breakdown(1, breakdown(chars, 0).to_wire())
    assert (counted.unit, counted.band("System"), counted.total) == ("chars", 300, 400)


def test_stacked_bars_scale_to_the_tallest_turn():
    chart = stacked(["1", "2"], [{"a": 10.0, "b": 30.0}, {"a": 20.0}], ("a", "b"), "tokens")
    assert chart is not None
    first, second = chart.bars
    assert [s.series for s in first.segments] == [0, 1]
    assert sum(s.height for s in first.segments) == chart.baseline - 10  # the tallest fills the plot
    assert second.segments[0].height == first.segments[0].height * 2
    assert stacked([], [], ("a",), "tokens") is None


def test_the_context_picture_stacks_every_band_a_turn_reported(crew_records: Records):
    chart = context_bands(reported_breakdowns(crew_records)["root@2"])
    assert chart is not None
    assert chart.series == ("System", "Tools", "Task", "Thread", "Views", "TaskList", "Skill")


def test_the_agent_tree_places_children_a_row_below_their_parent(crew_records: Records):
    picture = agent_tree(fold_agents(crew_records, "completed"))
    nodes = {n.id: n for n in picture.nodes}
    others = ("root@2", "root.1", "root.2", "root.f1", "root.3", "root.4")
    assert nodes["root"].y == 0 and all(nodes[a].y > 0 for a in others)
    assert len(picture.edges) == 6
    assert {e.relation for e in picture.edges} == {"exec", "subagent", "fork"}


def test_a_blocked_by_dag_puts_each_item_one_column_after_what_it_waits_on():
    graph = dependency_graph(
        [
            {"id": "a", "title": "first", "status": "done", "blockedBy": []},
            {"id": "b", "title": "second", "status": "pending", "blockedBy": ["a", "gone"]},
            {"id": "c", "title": "third", "status": "pending", "blockedBy": ["b", "a"]},
            {"id": "d", "title": "loop", "status": "pending", "blockedBy": ["e"]},
            {"id": "e", "title": "loop back", "status": "pending", "blockedBy": ["d"]},
        ]
    )
    assert graph is not None
    columns = {n.id: n.x for n in graph.nodes}
    step = columns["b"] - columns["a"]
    assert step > 0 and columns["c"] == 2 * step  # after the deepest it waits on
    assert len(graph.arrows) == 5  # the id no item carries draws nothing; the cycle is cut, not followed
    assert dependency_graph([]) is None


def test_an_axis_tops_at_a_round_figure_above_the_tallest_bar():
    assert [nice_top(v) for v in (5, 40, 1320, 9845, 0.004)] == [8, 40, 1600, 10_000, 0.004]


def test_a_count_has_whole_ticks():
    assert [nice_top(v, whole=True) for v in (1, 3, 4, 10)] == [4, 4, 4, 16]
    chart = stacked(["5"], [{"kept": 1.0}], ("kept",), "programs", whole=True)
    assert chart is not None and [t.label for t in chart.ticks] == ["0", "1", "2", "3", "4"]
