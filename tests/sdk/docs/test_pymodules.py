"""A Python code module's documentation, read from its definitions without running it."""

from __future__ import annotations

from gg.sdk.codemodule import CodeModule
from gg.sdk.docs.index import DocIndex, DocKind
from gg.sdk.docs.pymodules import python_exports, python_module_documentation

SOURCE = '''"""CSV helpers."""
import re

LIMIT = 10


def parse(text: str, sep: str = ",") -> list[list[str]]:
    """Rows of cells. Blank lines are kept."""
    return [line.split(sep) for line in text.splitlines()]


async def later(x):
    return x


class Row:
    """One row."""


def _private():
    pass
'''


def test_top_level_definitions_are_the_exports_each_quoted_with_its_docstrings_first_sentence() -> None:
    exports = {export.name: export for export in python_exports(SOURCE)}
    assert list(exports) == ["LIMIT", "parse", "later", "Row"]
    assert exports["parse"].declaration == "def parse(text: str, sep: str=',') -> list[list[str]]"
    assert exports["parse"].summary == "Rows of cells" and exports["parse"].kind is DocKind.FUNCTION
    assert exports["Row"].declaration == "class Row" and exports["Row"].summary == "One row."
    assert exports["LIMIT"].kind is None and exports["later"].summary == ""


def test_a_module_that_does_not_parse_documents_no_exports() -> None:
    pages = python_module_documentation(CodeModule("broken", "def (:\n", "py"), "Broken.")
    assert [page.key for page in pages] == ["lib.broken"]
    assert "It exports nothing." in pages[0].body


def test_the_pages_are_keyed_and_reached_in_pythons_spelling() -> None:
    pages = python_module_documentation(CodeModule("csv_tools", SOURCE, "py"), "CSV helpers.")
    assert [page.key for page in pages] == [
        "lib.csv_tools",
        "lib.csv_tools.parse",
        "lib.csv_tools.later",
        "lib.csv_tools.Row",
    ]
    assert "Reach it with `from lib import csv_tools`." in pages[0].body
    assert pages[1].body.endswith("Reach it with `from lib import csv_tools`, then as `csv_tools.parse`.")
    index = DocIndex(pages)
    assert index.find("csv_tools.parse") is pages[1] and index.module_named("csv_tools") == "lib.csv_tools"
