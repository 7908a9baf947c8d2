"""The console's pictures as geometry: stacked bars per turn and the agent tree. Pure.

Templates draw these as inline SVG (`templates/charts.html`), so every label is escaped like
any other text. A chart with nothing to draw is None, and the page says so in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gg.console.agents import AgentTree
from gg.console.context import ContextTurn
from gg.telemetry.transcript import Turn

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
    labels: Sequence[str], rows: Sequence[Mapping[str, float]], series: Sequence[str], unit: str
) -> BarChart | None:
    """Bars of stacked values, one per label, the series bottom up."""
    totals = [sum(row.get(name, 0.0) for name in series) for row in rows]
    top = max(totals, default=0.0)
    if not rows or top <= 0:
        return None
    plot_h = HEIGHT - BOTTOM - TOP
    slot = (WIDTH - LEFT - 8) / len(rows)
    width = min(MAX_BAR, slot * 0.7)
    bars: list[Bar] = []
    for position, (label, row) in enumerate(zip(labels, rows, strict=True)):
        y = HEIGHT - BOTTOM
        segments: list[Segment] = []
        for number, name in enumerate(series):
            value = row.get(name, 0.0)
            if value <= 0:
                continue
            height = value / top * plot_h
            y -= height
            segments.append(
                Segment(
                    round(y, 2),
                    round(height, 2),
                    number % PALETTE,
                    f"{label}: {name} {_figure(value)} {unit}",
                )
            )
        x = LEFT + position * slot + (slot - width) / 2
        bars.append(Bar(round(x, 2), round(width, 2), label, tuple(segments)))
    ticks = tuple(
        Tick(round(HEIGHT - BOTTOM - plot_h * k / TICKS, 2), _figure(top * k / TICKS))
        for k in range(TICKS + 1)
    )
    return BarChart(WIDTH, HEIGHT, tuple(bars), ticks, tuple(series), unit)


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
        [str(turn) for turn, _ in sizes], [{"kept": float(n)} for _, n in sizes], ("kept",), "programs"
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
class Node:
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
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    node_w: int = NODE_W
    node_h: int = NODE_H


def agent_tree(tree: AgentTree) -> TreePicture:
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
        Node(a, x, depth * (NODE_H + GAP_Y), _node_label(tree, a), tree.instances[a].status)
        for a, (x, depth) in placed.items()
    )
    edges = tuple(_edges(tree, placed))
    depth = max((d for _, d in placed.values()), default=0)
    return TreePicture(max(column[0] - GAP_X, NODE_W), (depth + 1) * (NODE_H + GAP_Y) - GAP_Y, nodes, edges)


def _edges(tree: AgentTree, placed: Mapping[str, tuple[float, int]]) -> list[Edge]:
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


def _node_label(tree: AgentTree, agent_id: str) -> str:
    profile = tree.instances[agent_id].profile
    return agent_id if not profile or profile == agent_id else f"{agent_id} · {profile}"


def _figure(value: float) -> str:
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    if value >= 1000:
        return f"{value / 1000:.1f}k"
    if 0 < value < 1:
        return f"{value:.4f}"
    return f"{value:.0f}"
