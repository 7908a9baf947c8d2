"""Every (config, task, repeat) once, dealt in an order the seed decides."""

from __future__ import annotations

from gg.study.plan import CellKey, plan_cells


def test_every_cell_is_planned_once() -> None:
    cells = plan_cells(["a", "b"], ["t1", "t2", "t3"], 2, seed=1)
    assert len(cells) == 12 == len(set(cells))
    assert CellKey("b", "t3", 2) in cells and CellKey("a", "t1", 1) in cells


def test_the_same_seed_deals_the_same_order_and_another_seed_another() -> None:
    first = plan_cells(["a", "b"], ["t1", "t2", "t3"], 2, seed=1)
    assert plan_cells(["a", "b"], ["t1", "t2", "t3"], 2, seed=1) == first
    assert plan_cells(["a", "b"], ["t1", "t2", "t3"], 2, seed=2) != first
