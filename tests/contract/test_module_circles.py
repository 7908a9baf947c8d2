"""Modules import one way too: no module of `gg` imports, directly or round a longer circle, a
module that imports it. Every import counts, a function's own and one under `TYPE_CHECKING`
included; a package's `__init__` (which only gathers its modules' names) is not a module here.

A module that needs something of a module that imports it reads it through a small protocol
of its own, or the shared piece moves down into the module that owns its concept. The circles
that still stand are listed by name with what ties them; a new one fails here, and so does one
broken without striking it off the list.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "gg"

STANDING: Mapping[frozenset[str], str] = {
    frozenset({"gg.loop.agent", "gg.loop.program", "gg.loop.turn"}): (
        "the turn and its programs read the `Incarnation` that gg.loop.agent defines and runs"
    ),
    frozenset({"gg.sdk.delegation", "gg.sdk.registry", "gg.sdk.scope", "gg.sdk.shell"}): (
        "an operation's handler takes the `ProgramScope`, which holds the ports those families define"
    ),
    frozenset({"gg.telemetry.postgres", "gg.telemetry.store"}): (
        "the store opens its PostgreSQL backend on demand; the backend raises the store's `RunStoreError`"
    ),
}


def _modules() -> dict[str, Path]:
    """Every module by dotted name; a package's `__init__` stands under the package's name."""
    found: dict[str, Path] = {}
    for path in SOURCE.rglob("*.py"):
        parts = path.relative_to(SOURCE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported(path: Path, modules: Mapping[str, Path]) -> Iterator[str]:
    """The modules of `gg` that `path` imports (`from gg.otel import marks` imports gg.otel.marks)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                yield name if name in modules else node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    packages = {name for name, path in modules.items() if path.name == "__init__.py"}
    return {
        name: {m for m in _imported(path, modules) if m in modules and m not in packages and m != name}
        for name, path in modules.items()
        if name not in packages
    }


def _circles(graph: Mapping[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan, walked without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: set[frozenset[str]] = set()
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, edges = work[-1]
            step = next((m for m in edges if m not in index or m in stack), None)
            if step is not None and step not in index:
                index[step] = low[step] = len(index)
                stack.append(step)
                work.append((step, iter(sorted(graph[step]))))
                continue
            if step is not None:
                low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = stack[stack.index(node) :]
                del stack[stack.index(node) :]
                if len(part) > 1:
                    circles.add(frozenset(part))
    return circles


def test_the_circle_finder_finds_a_circle_round_three_modules_and_none_in_a_line() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {frozenset({"a", "b", "c"})}
    assert _circles({"a": {"b"}, "b": {"c"}, "c": set()}) == set()


def test_no_modules_import_each_other_but_the_circles_still_standing() -> None:
    assert {tuple(sorted(circle)) for circle in _circles(_graph())} == {
        tuple(sorted(circle)) for circle in STANDING
    }
