"""The console's pictures as geometry: stacked bars per turn, the agent tree and a blocked-by
DAG (tasks, issues). Pure.

Templates draw these as inline SVG (`templates/charts.html`), so every label is escaped like
any other text. A chart with nothing to draw is None, and the page says so in words.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gg.console.context import ContextTurn
from gg.record.agents import RecordedTree
from gg.record.records import list_of
from gg.record.transcript import Turn

WIDTH = 720
HEIGHT = 200
LEFT = 56
BOTTOM = 22
TOP = 10
MAX_BAR = 28
TICKS = 4
NODE_W = 150
NODE_H = 34
GAP_X = 24
GAP_Y = 28
PALETTE = 8
DAG_W = 180
DAG_H = 40
DAG_GX = 40
DAG_GY = 14


@dataclass(frozen=True)
class Segment:
    y: float
    height: float
    series: int  # palette index
    title: str


@dataclass(frozen=True)
class Bar:
    x: float
    width: float
    label: str
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    series: tuple[str, ...]
    unit: str
    left: int = LEFT
    baseline: float = HEIGHT - BOTTOM


def stacked(
    labels: Sequence[str],
    rows: Sequence[Mapping[str, float]],
    series: Sequence[str],
    unit: str,
    *,
    whole: bool = False,
) -> BarChart | None:
    """Bars of stacked values, one per label, the series bottom up; a count (`whole`) has whole
    ticks."""
    totals = [sum(row.get(name, 0.0) for name in series) for row in rows]
    if not rows or max(totals, default=0.0) <= 0:
        return None
    top = nice_top(max(totals), whole=whole)
    slot = (WIDTH - LEFT - 8) / len(rows)
    width = min(MAX_BAR, slot * 0.7)
    bars = tuple(
        Bar(
            round(LEFT + position * slot + (slot - width) / 2, 2),
            round(width, 2),
            label,
            _stack(label, row, series, unit, top),
        )
        for position, (label, row) in enumerate(zip(labels, rows, strict=True))
    )
    return BarChart(WIDTH, HEIGHT, bars, _ticks(top), tuple(series), unit)


def _stack(
    label: str, row: Mapping[str, float], series: Sequence[str], unit: str, top: float
) -> tuple[Segment, ...]:
    """One bar's segments, the series bottom up, on an axis reaching `top`; a series the row
    holds none of draws nothing (its palette slot stays its own)."""
    plot_h = HEIGHT - BOTTOM - TOP
    y = HEIGHT - BOTTOM
    segments: list[Segment] = []
    for number, name in enumerate(series):
        value = row.get(name, 0.0)
        if value <= 0:
            continue
        height = value / top * plot_h
        y -= height
        title = f"{label}: {name} {_figure(value)} {unit}"
        segments.append(Segment(round(y, 2), round(height, 2), number % PALETTE, title))
    return tuple(segments)


def _ticks(top: float) -> tuple[Tick, ...]:
    """The value axis from 0 to `top`, in `TICKS` equal steps."""
    plot_h = HEIGHT - BOTTOM - TOP
    return tuple(
        Tick(round(HEIGHT - BOTTOM - plot_h * k / TICKS, 2), _figure(top * k / TICKS))
        for k in range(TICKS + 1)
    )


def nice_top(value: float, *, whole: bool = False) -> float:
    """The axis top: the least multiple of a round step (1, 2, 2.5, 4 or 5 times a power of ten) at or
    above `value` in at most `TICKS` steps, so every tick reads as a round figure; for a count
    (`whole`) the step is a whole number."""
    magnitude = 10 ** math.floor(math.log10(value / TICKS)) if value > 0 else 1
    if whole:
        magnitude = max(1, magnitude)
    for factor in (1, 2, 2.5, 4, 5, 10):
        step = factor * magnitude
        if whole and step != int(step):
            continue
        if step * TICKS >= value:
            return step * TICKS
    return 10 * magnitude * TICKS


def spend_per_turn(turns: Sequence[Turn]) -> tuple[BarChart | None, BarChart | None]:
    """Tokens per turn (input and output stacked) and cost per turn."""
    labels = [str(turn.number) for turn in turns]
    tokens = stacked(
        labels,
        [{"input": float(t.tokens.input), "output": float(t.tokens.output)} for t in turns],
        ("input", "output"),
        "tokens",
    )
    costs = [{"cost": t.cost_usd or 0.0} for t in turns]
    cost = stacked(labels, costs, ("cost",), "USD") if any(t.cost_usd for t in turns) else None
    return tokens, cost


def library_growth(sizes: Sequence[tuple[int, int]]) -> BarChart | None:
    """A library's size after each turn it changed in."""
    return stacked(
        [str(turn) for turn, _ in sizes],
        [{"kept": float(n)} for _, n in sizes],
        ("kept",),
        "programs",
        whole=True,
    )


def context_bands(turns: Mapping[int, ContextTurn]) -> BarChart | None:
    """The bands of each turn's window, stacked."""
    ordered = [turns[n] for n in sorted(turns)]
    if not ordered:
        return None
    series: list[str] = []
    for turn in ordered:
        series.extend(band.name for band in turn.bands if band.name not in series)
    rows = [{band.name: band.size for band in turn.bands} for turn in ordered]
    return stacked([str(t.turn) for t in ordered], rows, series, ordered[0].unit)


@dataclass(frozen=True)
class PlacedNode:
    id: str
    x: float
    y: float
    label: str
    status: str


@dataclass(frozen=True)
class Edge:
    x1: float
    y1: float
    x2: float
    y2: float
    relation: str


@dataclass(frozen=True)
class TreePicture:
    width: float
    height: float
    nodes: tuple[PlacedNode, ...]
    edges: tuple[Edge, ...]
    node_w: int = NODE_W
    node_h: int = NODE_H


def agent_tree(tree: RecordedTree) -> TreePicture:
    """Each instance a box; children in the next row, under their parent's span."""
    placed: dict[str, tuple[float, int]] = {}
    column = [0.0]

    def place(agent_id: str, depth: int, trail: frozenset[str]) -> float:
        instance = tree.instances[agent_id]
        children = [
            c for c in (*instance.successors, *instance.subagents) if c in tree.instances and c not in trail
        ]
        if not children:
            x = column[0]
            column[0] += NODE_W + GAP_X
        else:
            xs = [place(child, depth + 1, trail | {child}) for child in children]
            x = (xs[0] + xs[-1]) / 2
        placed[agent_id] = (x, depth)
        return x

    if tree.root in tree.instances:
        place(tree.root, 0, frozenset({tree.root}))
    nodes = tuple(
        PlacedNode(a, x, depth * (NODE_H + GAP_Y), _node_label(tree, a), tree.instances[a].status)
        for a, (x, depth) in placed.items()
    )
    edges = tuple(_edges(tree, placed))
    depth = max((d for _, d in placed.values()), default=0)
    return TreePicture(max(column[0] - GAP_X, NODE_W), (depth + 1) * (NODE_H + GAP_Y) - GAP_Y, nodes, edges)


def _edges(tree: RecordedTree, placed: Mapping[str, tuple[float, int]]) -> list[Edge]:
    edges: list[Edge] = []
    for agent_id, (x, depth) in placed.items():
        instance = tree.instances[agent_id]
        for child in (*instance.successors, *instance.subagents):
            if child not in placed:
                continue
            cx, cdepth = placed[child]
            edges.append(
                Edge(
                    x + NODE_W / 2,
                    depth * (NODE_H + GAP_Y) + NODE_H,
                    cx + NODE_W / 2,
                    cdepth * (NODE_H + GAP_Y),
                    tree.instances[child].relation,
                )
            )
    return edges


def _node_label(tree: RecordedTree, agent_id: str) -> str:
    profile = tree.instances[agent_id].profile
    return agent_id if not profile or profile == agent_id else f"{agent_id} · {profile}"


def _figure(value: float) -> str:
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    if value >= 1000:
        return f"{value / 1000:.1f}k"
    if 0 < value < 1:
        return f"{value:.4f}".rstrip("0")
    return f"{value:g}" if value < 100 else f"{value:.0f}"


@dataclass(frozen=True)
class GraphNode:
    id: str
    title: str
    status: str
    x: float
    y: float


@dataclass(frozen=True)
class Arrow:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Graph:
    width: float
    height: float
    nodes: tuple[GraphNode, ...]
    arrows: tuple[Arrow, ...]
    node_w: int = DAG_W
    node_h: int = DAG_H


def dependency_graph(items: Sequence[Mapping[str, Any]]) -> Graph | None:
    """Tasks or issues as their blocked-by DAG, left to right: each item one column after the
    deepest item it waits on (an id it names that is not listed is left out; a cycle is cut)."""
    known = {str(item.get("id", "")): item for item in items if item.get("id") is not None}
    if not known:
        return None
    waits = {
        key: [str(b) for b in list_of(item.get("blockedBy")) if str(b) in known]
        for key, item in known.items()
    }
    depth: dict[str, int] = {}

    def depth_of(key: str, trail: frozenset[str]) -> int:
        if key not in depth:
            before = [depth_of(b, trail | {key}) for b in waits[key] if b not in trail]
            depth[key] = 1 + max(before) if before else 0
        return depth[key]

    rows: dict[int, int] = {}
    nodes: dict[str, GraphNode] = {}
    for key, item in known.items():
        column = depth_of(key, frozenset())
        row = rows.get(column, 0)
        rows[column] = row + 1
        title = str(item.get("title", ""))
        nodes[key] = GraphNode(
            key, title, str(item.get("status", "")), column * (DAG_W + DAG_GX), row * (DAG_H + DAG_GY)
        )
    arrows = tuple(
        Arrow(nodes[b].x + DAG_W, nodes[b].y + DAG_H / 2, nodes[k].x, nodes[k].y + DAG_H / 2)
        for k, blockers in waits.items()
        for b in blockers
    )
    width = (max(rows) + 1) * (DAG_W + DAG_GX) - DAG_GX
    height = max(rows.values()) * (DAG_H + DAG_GY) - DAG_GY
    return Graph(width, height, tuple(nodes.values()), arrows)
