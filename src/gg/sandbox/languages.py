"""The language arms' values (`LanguageSpec`, `gg.sdk.docs.language`), by id (`LANGUAGES`): each
arm's spelling of an import line, a signature, a parameter, the declared types and a result (the
TypeScript ones from the Deno arm, the Python ones from the Monty arm). TypeScript is JavaScript
with its own name, segment and module extensions; typed Python is Python with its own segment."""

from __future__ import annotations

from dataclasses import replace

from gg.sandbox.deno.declarations import alias_methods, ts_declaration, ts_param_type, ts_signature
from gg.sandbox.monty.spelling import declarations as python_declarations
from gg.sandbox.monty.spelling import param_spelling as python_param_spelling
from gg.sandbox.monty.spelling import returns_type as python_returns
from gg.sandbox.monty.spelling import signature as python_signature
from gg.sdk.docs.codemodules import module_documentation
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.docs.modulekeys import camel_key, snake_key
from gg.sdk.docs.pymodules import python_module_documentation
from gg.sdk.registry import Operation, Param, Registry


def es_import_line(family: str) -> str:
    return f'import {{ {family} }} from "gg";'


def ts_signature_line(op: Operation) -> str:
    """`files.readFile(path: string, options?: { offset?: number; limit?: number }): FileRead`."""
    return f"{op.family}.{ts_signature(op)}"


def ts_param_spelling(param: Param) -> tuple[str, str]:
    """`("options.offset", "number")`: a parameter as the documentation names and types it."""
    return (param.wire if param.in_place else f"options.{param.wire}"), ts_param_type(param)


def ts_returns(op: Operation) -> str:
    """What a call hands back, as TypeScript spells it (`FileRead`, `void`)."""
    return op.returns


def ts_declarations(registry: Registry) -> dict[str, str]:
    """Each declared type as the documentation quotes it, by name."""
    methods = alias_methods(registry)
    return {name: ts_declaration(decl, methods.get(name, ())) for name, decl in registry.types.items()}


def python_import_line(family: str) -> str:
    """Every module is reached through the one package: `import gg`, then `gg.<family>.<name>`."""
    return "import gg"


JAVASCRIPT = LanguageSpec(
    id="javascript",
    display_name="JavaScript",
    print_call="console.log",
    segment_template="arm-javascript",
    module_extensions=("js",),
    module_key=camel_key,
    import_line_of=es_import_line,
    signature_of=ts_signature_line,
    param_spelling=ts_param_spelling,
    declarations_of=ts_declarations,
    returns_of=ts_returns,
    document_module=module_documentation,
)

TYPESCRIPT = replace(
    JAVASCRIPT,
    id="typescript",
    display_name="TypeScript",
    segment_template="arm-typescript",
    module_extensions=("ts", "js"),
)

PYTHON = LanguageSpec(
    id="python",
    display_name="Python",
    print_call="print",
    segment_template="arm-python",
    module_extensions=("py",),
    module_key=snake_key,
    import_line_of=python_import_line,
    signature_of=python_signature,
    param_spelling=python_param_spelling,
    declarations_of=python_declarations,
    returns_of=python_returns,
    document_module=python_module_documentation,
)

PYTHON_TYPED = replace(PYTHON, id="python-typed", segment_template="arm-python-typed")

LANGUAGES = {spec.id: spec for spec in (JAVASCRIPT, TYPESCRIPT, PYTHON, PYTHON_TYPED)}
