"""The layering of the house, as data: which package of `gg` may import which.

Packages import one way, bottom to top. A package may import the packages of the floors below
its own and nothing above; two packages on one floor do not import each other unless the table
says so. Every import counts, a function's own and one under `TYPE_CHECKING` included: a rule
owned by a lower floor never reaches up for a name. The table is the map a newcomer reads to find
the room that owns a rule; a new upward import fails here before it can tie a knot.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "gg"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("wire", "errors", "ids", "outcome", "prompts", "exits", "deadline", "version", "listening"),
    ("config",),
    ("telemetry",),
    ("providers",),
    ("state",),
    ("sdk",),
    ("sandbox",),
    ("record",),
    ("loop", "mcp"),
    ("agents",),
    ("terminal", "study", "console", "api", "otel", "mcp_server", "playback"),
    ("cli", "__init__"),
)
"""The floors, ground first. A module at the top of `gg` (`gg/wire.py`) is a package of its own."""

SAME_FLOOR: dict[str, frozenset[str]] = {
    "errors": frozenset({"wire"}),
    "outcome": frozenset({"errors", "wire"}),
    "prompts": frozenset({"wire"}),
    "ids": frozenset({"wire", "errors"}),
    "console": frozenset({"terminal", "study"}),
    "api": frozenset({"terminal", "otel", "playback"}),
    "study": frozenset({"terminal"}),
    "otel": frozenset({"terminal"}),
    "mcp_server": frozenset({"api"}),
}
"""The imports allowed between packages of one floor, by importer."""


def _floor(package: str) -> int:
    for index, floor in enumerate(FLOORS):
        if package in floor:
            return index
    raise AssertionError(f"gg.{package} stands on no floor of the table")


def _package(module: str) -> str:
    """The package a module path names; a name `gg/__init__.py` defines is the top's own."""
    parts = module.split(".")
    if len(parts) < 2 or not ((SOURCE / parts[1]).is_dir() or (SOURCE / f"{parts[1]}.py").is_file()):
        return "__init__"
    return parts[1]


def _own_package(path: Path) -> str:
    """`gg/wire.py` stands in `wire`, `gg/sdk/shell.py` in `sdk`, `gg/__init__.py` in the top's own."""
    first = path.relative_to(SOURCE).parts[0]
    return "__init__" if first == "__init__.py" else first.removesuffix(".py")


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "gg":
                yield from ((node.lineno, f"gg.{alias.name}") for alias in node.names)
            elif node.module.startswith("gg."):
                yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            names = (alias.name for alias in node.names)
            yield from ((node.lineno, name) for name in names if name == "gg" or name.startswith("gg."))


def _allowed(importer: str, imported: str) -> bool:
    if importer == imported:
        return True
    if _floor(imported) < _floor(importer):
        return True
    return imported in SAME_FLOOR.get(importer, frozenset())


def test_every_package_stands_on_a_floor() -> None:
    packages = {_own_package(path) for path in SOURCE.rglob("*.py")}
    assert {package for package in packages if not any(package in floor for floor in FLOORS)} == set()


def test_no_package_imports_upward() -> None:
    upward = [
        f"{path.relative_to(SOURCE)}:{line} imports {module}"
        for path in sorted(SOURCE.rglob("*.py"))
        for line, module in _imports(path)
        if not _allowed(_own_package(path), _package(module))
    ]
    assert upward == []
