"""Contract: the Python and JavaScript guests offer the same operations, because both are generated
from the one registry. Read from the generated artifacts themselves: the JavaScript family modules'
exports, the Python prelude's module attributes and the Python stubs' functions."""

from __future__ import annotations

import ast
import re

from gg.sandbox.deno.bundle import build_bundle as js_bundle
from gg.sandbox.monty.bundle import build_bundle as py_bundle
from gg.sdk.catalogue import default_registry
from gg.sdk.registry import Registry

_JS_EXPORT = re.compile(r"^export function (\w+)\(", re.M)
_PY_STUB_DEF = re.compile(r"^def (\w+)\(", re.M)


def _javascript_operations(registry: Registry) -> set[str]:
    by_js = {(op.family, op.js_name): op.wire for op in registry}
    found: set[str] = set()
    for family in registry.families():
        for name in _JS_EXPORT.findall(js_bundle(registry).sdk[f"sdk:/{family}.js"]):
            found.add(by_js[(family, name)])
    return found


def _python_prelude_operations(registry: Registry) -> set[str]:
    """`m.<name> = <name>` for each function defined in a `_family_<family>` factory."""
    found: set[str] = set()
    for node in ast.parse(py_bundle(registry).prelude).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("_family_"):
            family = node.name.removeprefix("_family_")
            functions = {inner.name for inner in node.body if isinstance(inner, ast.FunctionDef)}
            for statement in node.body:
                value = statement.value if isinstance(statement, ast.Assign) else None
                if isinstance(value, ast.Name) and value.id in functions:
                    found.add(f"{family}.{value.id}")
    return found


def _python_stub_operations(registry: Registry) -> set[str]:
    stubs = py_bundle(registry).stubs
    return {
        f"{family}.{name}"
        for family in registry.families()
        for name in _PY_STUB_DEF.findall(stubs[f"gg.{family}"])
    }


def test_the_python_and_javascript_guests_carry_the_same_operations() -> None:
    registry = default_registry()
    every = {op.wire for op in registry}
    assert _javascript_operations(registry) == every
    assert _python_prelude_operations(registry) == every
    assert _python_stub_operations(registry) == every


def test_the_python_worker_serves_every_operation_as_a_host_function() -> None:
    registry = default_registry()
    assert set(py_bundle(registry).operations) == {f"gg.{op.wire}" for op in registry}
