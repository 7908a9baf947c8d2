"""The documentation of a Python code module, read from its own definitions.

Rules kept here (a parse with the standard `ast`, nothing of the module runs):
- an export is a top-level `def`, `async def` or `class` whose name does not start with `_`
  (each a `function` entry), or a top-level assignment to such a name (a value, shown on the
  module's page only);
- an entry quotes its definition as the module spells it (`def parse(text: str, sep=',') ->
  list[str]`, `class Row`, `LIMIT = ...`, at most 300 characters), and its summary is the first
  sentence of its docstring, when it has one;
- the module's entry is keyed `lib.<key>`, its exports `lib.<key>.<name>`; it is reached with
  `from lib import <key>`, an export as `<key>.<name>`; a module that does not parse documents
  no exports.
"""

from __future__ import annotations

import ast

from gg.sdk.codemodule import CodeModule
from gg.sdk.docs.codemodules import MAX_DECLARATION_CHARS, Export, Reach, documented
from gg.sdk.docs.index import DocEntry, DocKind


def python_module_documentation(module: CodeModule, description: str) -> list[DocEntry]:
    """The pages of one loaded Python module."""
    reach = Reach(f"lib.{module.key}", f"from lib import {module.key}", module.key)
    return documented(reach, description, python_exports(module.source))


def python_exports(source: str) -> list[Export]:
    """Every export of `source`, in source order."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found: list[Export] = []
    for node in tree.body:
        found.extend(_exports_of(node))
    return found


def _exports_of(node: ast.stmt) -> list[Export]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        declaration = f"def {node.name}({ast.unparse(node.args)})"
        if node.returns is not None:
            declaration += f" -> {ast.unparse(node.returns)}"
        return _public(node.name, DocKind.FUNCTION, declaration, _summary(node))
    if isinstance(node, ast.ClassDef):
        return _public(node.name, DocKind.FUNCTION, f"class {node.name}", _summary(node))
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, ast.AnnAssign)
        else []
    )
    names = [target.id for target in targets if isinstance(target, ast.Name)]
    return [export for name in names for export in _public(name, None, f"{name} = ...", "")]


def _public(name: str, kind: DocKind | None, declaration: str, summary: str) -> list[Export]:
    if name.startswith("_"):
        return []
    if len(declaration) > MAX_DECLARATION_CHARS:
        declaration = declaration[:MAX_DECLARATION_CHARS] + "…"
    return [Export(name, kind, declaration, summary)]


def _summary(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    text = ast.get_docstring(node) or ""
    first = " ".join(text.strip().splitlines()[:1]).strip()
    return first.split(". ")[0].strip()
