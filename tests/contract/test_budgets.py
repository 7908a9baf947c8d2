"""The size budgets of the house: every source module under 400 lines, every function at most 40.

The budgets exist to make the code split by concept: a module that outgrows 400 lines holds two
rules that want a room each, and a function past 40 lines holds steps that want names. They are
counted on `src/gg` as written (blank lines and docstrings included), the module by its lines,
a function from its `def` line to its last line, decorators excluded.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "gg"


def _modules() -> Iterator[Path]:
    yield from sorted(SOURCE.rglob("*.py"))


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def test_every_module_is_under_400_lines() -> None:
    over = {
        str(path.relative_to(SOURCE)): lines
        for path in _modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) >= 400
    }
    assert over == {}


def test_every_function_is_at_most_40_lines() -> None:
    over: dict[str, int] = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for function in _functions(tree):
            assert function.end_lineno is not None
            lines = function.end_lineno - function.lineno + 1
            if lines > 40:
                over[f"{path.relative_to(SOURCE)}:{function.lineno} {function.name}"] = lines
    assert over == {}
