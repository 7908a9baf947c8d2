"""The documentation pages of one agent, built from its arm's signature catalogue.

Rules kept here:
- a function's page quotes its signature, summary, import line, parameters, result (as the arm
  spells its type) and failures,
  and the declarations of the types its result names, followed one level down (a union's members,
  a record's declared field types), so one page shows the whole shape of what comes back;
- a function whose result is declared unknown (an MCP tool with no output schema) adds, each time
  its page is read, the shape of the last result the run saw of it, or that it saw none yet;
- a type's page quotes its declaration and, one level down, those of the types it names;
- a quoted declaration's doc line is a line comment in the arm's language (`#` in Python, `//`
  in JavaScript and TypeScript);
- a module's page lists the functions the agent may call and the module's types;
- only the functions in `callable` are documented; a module is documented when it holds one of
  them, and its types come with it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from gg.prompts import render
from gg.sdk.docs.index import DocEntry, DocKind
from gg.sdk.docs.signatures import FunctionEntry, ModuleEntry, SignatureCatalogue, TypeEntry
from gg.sdk.registry import PYTHON_ARMS

NOTHING = frozenset({"void", "None"})  # a result that is nothing, as each arm spells it


def documentation(catalogue: SignatureCatalogue, callable: Collection[str]) -> list[DocEntry]:
    """The pages of every module, function and type the functions keyed in `callable` reach."""
    functions = [entry for entry in catalogue.functions if entry.key in callable]
    modules = [m for m in catalogue.modules if any(f.module == m.name for f in functions)]
    names = {m.name for m in modules}
    types = [entry for entry in catalogue.types if entry.module in names]
    pages: list[DocEntry] = []
    for module in modules:
        own = [f for f in functions if f.module == module.name]
        pages.append(_module_page(module, own, [t for t in types if t.module == module.name]))
        pages.extend(_function_page(catalogue, module, f) for f in own)
        pages.extend(_type_page(catalogue, module, t) for t in types if t.module == module.name)
    return pages


def _module_page(module: ModuleEntry, functions: list[FunctionEntry], types: list[TypeEntry]) -> DocEntry:
    body = render(
        "docs-module",
        specifier=module.specifier,
        brief=module.brief,
        import_line=module.import_line,
        functions=functions,
        types=[t.name for t in types],
    )
    return DocEntry(module.key, DocKind.MODULE, module.name, module.name, module.brief, body)


def _function_page(catalogue: SignatureCatalogue, module: ModuleEntry, entry: FunctionEntry) -> DocEntry:
    body = render(
        "docs-function",
        signature=entry.signature,
        summary=entry.summary,
        import_line=module.import_line,
        params=entry.params,
        returns=None if entry.returns in NOTHING else entry.returns,
        declarations=_declarations(catalogue, _returned(catalogue, entry)),
        errors=entry.errors,
    )
    words = tuple(p.name.removeprefix("options.") for p in entry.params)
    later = None if entry.last_seen is None else _last_seen_note(entry.last_seen)
    return DocEntry(entry.key, DocKind.FUNCTION, entry.module, entry.name, entry.summary, body, words, later)


def _last_seen_note(last_seen: Callable[[], str | None]) -> Callable[[], str]:
    """The line a page whose result is declared unknown adds as it is read."""
    return lambda: render("docs-last-result", shape=last_seen())


def _type_page(catalogue: SignatureCatalogue, module: ModuleEntry, entry: TypeEntry) -> DocEntry:
    body = render(
        "docs-type",
        doc=entry.doc,
        specifier=module.specifier,
        declaration=entry.declaration,
        declarations=_declarations(catalogue, entry.references),
    )
    return DocEntry(entry.key, DocKind.TYPE, entry.module, entry.name, entry.doc, body)


def _returned(catalogue: SignatureCatalogue, entry: FunctionEntry) -> list[str]:
    """The types a result names, then the types those name (one level down)."""
    first = [t for t in (catalogue.type_named(name) for name in entry.references) if t is not None]
    second = [ref for t in first for ref in t.references]
    return list(dict.fromkeys([*(t.name for t in first), *second]))


def _declarations(catalogue: SignatureCatalogue, names: Iterable[str]) -> list[str]:
    """Each named type's declaration under a line comment, as the arm's language writes one."""
    found = [catalogue.type_named(name) for name in names]
    comment = "#" if catalogue.language in PYTHON_ARMS else "//"
    return [f"{comment} {entry.doc}\n{entry.declaration}" for entry in found if entry is not None]
