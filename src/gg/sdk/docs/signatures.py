"""The signature catalogue of one arm: every module, function and type of the SDK as that arm's
programs spell them, generated from the registry. The documentation pages are built from it.

Rules kept here:
- one entry per family (`gg.files`, with its specifier `gg:files`, brief and import line), per
  operation (`gg.files.readFile`, whoever may call it) and per declared type (`gg.files.FileRead`);
- the JavaScript arm's catalogue is the TypeScript arm's, entry for entry, type annotations
  included; only `language` differs; a function's result is spelled for the arm;
- `to_json()` is schema 1: `{schema, language, modules, functions, types}`, camelCase fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gg.sdk.docs.language import LanguageSpec
from gg.sdk.registry import LastSeen, Operation, Registry
from gg.sdk.sighting import sketch
from gg.sdk.types import referenced

SCHEMA = 1


@dataclass(frozen=True)
class ParamEntry:
    name: str  # as the program writes it: `path`, or `options.offset` for one in the options object
    type: str
    optional: bool
    doc: str


@dataclass(frozen=True)
class FunctionEntry:
    key: str  # `gg.files.readFile`
    module: str
    name: str
    operation: str  # the wire key, `files.read_file`
    signature: str
    summary: str
    params: tuple[ParamEntry, ...]
    returns: str  # spelled for the arm
    errors: tuple[tuple[str, str], ...]  # (code, when)
    references: tuple[str, ...] = ()  # the declared types its result names
    last_seen: Callable[[], str | None] | None = field(default=None, compare=False)  # a result declared
    # unknown: the shape of the last one the run saw, spelled for the arm (None before any)


@dataclass(frozen=True)
class TypeEntry:
    key: str  # `gg.files.FileRead`
    module: str
    name: str
    doc: str
    declaration: str
    references: tuple[str, ...]  # the declared types it names


@dataclass(frozen=True)
class ModuleEntry:
    key: str  # `gg.files`
    name: str
    specifier: str  # `gg:files`
    brief: str
    import_line: str


@dataclass(frozen=True)
class SignatureCatalogue:
    language: str
    modules: tuple[ModuleEntry, ...]
    functions: tuple[FunctionEntry, ...]
    types: tuple[TypeEntry, ...]

    def type_named(self, name: str) -> TypeEntry | None:
        return next((entry for entry in self.types if entry.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "language": self.language,
            "modules": [_module_json(m) for m in self.modules],
            "functions": [_function_json(f) for f in self.functions],
            "types": [_type_json(t) for t in self.types],
        }


def signature_catalogue(registry: Registry, language: LanguageSpec) -> SignatureCatalogue:
    """The catalogue of `registry` for the arm `language`."""
    families = list(dict.fromkeys([*registry.families(), *(d.family for d in registry.types.values())]))
    spelled = language.declarations_of(registry)
    modules = tuple(
        ModuleEntry(
            key=f"gg.{family}",
            name=family,
            specifier=f"gg:{family}",
            brief=registry.brief(family),
            import_line=language.import_line(family),
        )
        for family in families
    )
    functions = tuple(_function_entry(op, language) for op in registry)
    types = tuple(
        TypeEntry(
            key=f"gg.{decl.family}.{decl.name}",
            module=decl.family,
            name=decl.name,
            doc=decl.doc,
            declaration=spelled[decl.name],
            references=tuple(referenced(decl)),
        )
        for decl in registry.types.values()
    )
    return SignatureCatalogue(language.id, modules, functions, types)


def _function_entry(op: Operation, language: LanguageSpec) -> FunctionEntry:
    params = tuple(
        ParamEntry(
            name=language.param_spelling(p)[0],
            type=language.param_spelling(p)[1],
            optional=not p.required,
            doc=p.doc,
        )
        for p in op.params
    )
    return FunctionEntry(
        key=op.qualified(language.id),
        module=op.family,
        name=op.sdk_name(language.id),
        operation=op.wire,
        signature=language.signature(op),
        summary=op.summary,
        params=params,
        returns=language.returns_of(op),
        errors=tuple((error.code.value, error.when) for error in op.errors),
        references=tuple(op.returned_names()),
        last_seen=None if op.sightings is None else _last_seen(op.sightings, op.wire, language.id),
    )


def _last_seen(sightings: LastSeen, operation: str, language: str) -> Callable[[], str | None]:
    def shape() -> str | None:
        seen = sightings.last(operation)
        return None if seen is None else sketch(seen[0], language)

    return shape


def _module_json(entry: ModuleEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "name": entry.name,
        "specifier": entry.specifier,
        "brief": entry.brief,
        "import": entry.import_line,
    }


def _function_json(entry: FunctionEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "module": entry.module,
        "name": entry.name,
        "operation": entry.operation,
        "signature": entry.signature,
        "summary": entry.summary,
        "params": [
            {"name": p.name, "type": p.type, "optional": p.optional, "doc": p.doc} for p in entry.params
        ],
        "returns": entry.returns,
        "errors": [{"code": code, "when": when} for code, when in entry.errors],
    }


def _type_json(entry: TypeEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "module": entry.module,
        "name": entry.name,
        "doc": entry.doc,
        "declaration": entry.declaration,
        "references": list(entry.references),
    }
