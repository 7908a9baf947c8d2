"""The documentation of a code module: its pages (`documented`, whatever the module's language),
and the exports of a JavaScript or TypeScript module, read from its own declarations.

Rules kept here for JavaScript and TypeScript (a line scan, not a parse):
- an export is a line that starts with `export`: `export [default] [async] function[*] name(...)`,
  `export [abstract] class name`, `export const|let|var name`, `export interface|type|enum name`,
  and the names of `export { a, b as c }`;
- a function or a class, and a `const` whose value starts as a function (`(`, `async`, `function`
  or `name =>`), is a `function` entry; an interface, a type alias or an enum is a `type` entry;
  other exported values appear on the module's page only;
- an entry quotes the declaration line as its author wrote it (cut before a body's `{` or a
  value's `=`, at most 300 characters), and its summary is the first line of the `/** ... */`
  comment right above it, when there is one;
- the module's entry is keyed `lib:<key>`, its exports `lib:<key>.<name>`; its summary is the
  skill's description.

For any language, a module's page names its specifier and import line and lists every export;
each function or type export gets a page of its own, saying how it is reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gg.prompts import render
from gg.sdk.codemodule import CodeModule
from gg.sdk.docs.index import DocEntry, DocKind

MAX_DECLARATION_CHARS = 300
_FUNCTION = re.compile(r"export\s+(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)")
_CLASS = re.compile(r"export\s+(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)")
_TYPE = re.compile(r"export\s+(?:declare\s+)?(?:const\s+)?(?:interface|type|enum)\s+([A-Za-z_$][\w$]*)")
_VALUE = re.compile(r"export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(.*)")
_LIST = re.compile(r"export\s*\{([^}]*)\}")
_FUNCTION_VALUE = re.compile(r"(?:async\b|function\b|\(|[A-Za-z_$][\w$]*\s*=>)")


@dataclass(frozen=True)
class Export:
    name: str
    kind: DocKind | None  # None: a value, shown on the module's page only
    declaration: str
    summary: str


@dataclass(frozen=True)
class Reach:
    """How a program of the module's arm names and imports it."""

    specifier: str  # `lib:csvTools`, `lib.csv_tools`: the module's key in the documentation
    import_line: str
    access: str  # what an export's name follows: `csvTools`


def exports_of(source: str) -> list[Export]:
    """Every export the line scan finds, in source order."""
    lines = source.splitlines()
    found: list[Export] = []
    for number, raw in enumerate(lines):
        line = raw.strip()
        if not line.startswith("export"):
            continue
        summary = _doc_above(lines, number)
        found.extend(_exports_on(line, summary))
    return found


def _exports_on(line: str, summary: str) -> list[Export]:
    declaration = _declaration(line)
    for pattern, kind in ((_FUNCTION, DocKind.FUNCTION), (_CLASS, DocKind.FUNCTION), (_TYPE, DocKind.TYPE)):
        if match := pattern.match(line):
            return [Export(match.group(1), kind, declaration, summary)]
    if match := _VALUE.match(line):
        kind = DocKind.FUNCTION if _FUNCTION_VALUE.match(match.group(2)) else None
        return [Export(match.group(1), kind, declaration, summary)]
    if match := _LIST.match(line):
        names = [part.split(" as ")[-1].strip() for part in match.group(1).split(",")]
        return [Export(name, None, declaration, summary) for name in names if name]
    return []


def _declaration(line: str) -> str:
    """The line up to a body's opening brace or a function value's arrow."""
    cut = line
    if "=>" in cut:
        cut = cut[: cut.index("=>") + 2]
    elif cut.endswith("{"):
        cut = cut[:-1]
    cut = cut.removeprefix("export ").strip()
    return cut if len(cut) <= MAX_DECLARATION_CHARS else cut[:MAX_DECLARATION_CHARS] + "…"


def _doc_above(lines: list[str], number: int) -> str:
    """The first line of the `/** ... */` comment ending right above line `number`."""
    end = number - 1
    if end < 0 or not lines[end].strip().endswith("*/"):
        return ""
    start = end
    while start > 0 and "/**" not in lines[start]:
        start -= 1
    text = " ".join(part.strip().lstrip("/*").rstrip("*/").strip() for part in lines[start : end + 1])
    return text.strip().split(". ")[0].strip()


def module_documentation(module: CodeModule, description: str) -> list[DocEntry]:
    """The pages of one loaded JavaScript or TypeScript module."""
    specifier = f"lib:{module.key}"
    reach = Reach(specifier, f'import * as {module.key} from "{specifier}";', module.key)
    return documented(reach, description, exports_of(module.source))


def documented(reach: Reach, description: str, exports: list[Export]) -> list[DocEntry]:
    """The pages of one loaded module: the module's own, then one per function or type export."""
    body = render(
        "docs-lib-module",
        specifier=reach.specifier,
        description=description,
        import_line=reach.import_line,
        exports=exports,
    )
    name = reach.access
    pages = [DocEntry(reach.specifier, DocKind.MODULE, reach.specifier, name, description, body)]
    for export in exports:
        if export.kind is None:
            continue
        page = render(
            "docs-lib-export",
            declaration=export.declaration,
            summary=export.summary,
            import_line=reach.import_line,
            access=f"{reach.access}.{export.name}",
        )
        key = f"{reach.specifier}.{export.name}"
        pages.append(DocEntry(key, export.kind, reach.specifier, export.name, export.summary, page))
    return pages
