"""What each language arm contributes to the prompt: its name, its print call, its prompt segment,
the import line of a module, the spelling of a signature and of a result, and how its code modules
are named (`module_key`), written (`module_extensions`, preferred first) and documented
(`document_module`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gg.sandbox.deno.declarations import alias_methods, ts_declaration, ts_param_type, ts_signature
from gg.sandbox.execution import CodeModule
from gg.sandbox.monty.spelling import declarations as python_declarations
from gg.sandbox.monty.spelling import param_spelling as python_param_spelling
from gg.sandbox.monty.spelling import returns_type as python_returns
from gg.sandbox.monty.spelling import signature as python_signature
from gg.sdk.docs.codemodules import module_documentation
from gg.sdk.docs.index import DocEntry
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


@dataclass(frozen=True)
class LanguageSpec:
    id: str
    display_name: str
    print_call: str
    segment_template: str
    module_extensions: tuple[str, ...] = ("js",)
    module_key: Callable[[str], str] = camel_key
    import_line_of: Callable[[str], str] = es_import_line
    signature_of: Callable[[Operation], str] = ts_signature_line
    param_spelling: Callable[[Param], tuple[str, str]] = ts_param_spelling
    declarations_of: Callable[[Registry], dict[str, str]] = ts_declarations
    returns_of: Callable[[Operation], str] = ts_returns
    document_module: Callable[[CodeModule, str], list[DocEntry]] = module_documentation

    def import_line(self, family: str) -> str:
        return self.import_line_of(family)

    def signature(self, op: Operation) -> str:
        return self.signature_of(op)


JAVASCRIPT = LanguageSpec(
    id="javascript",
    display_name="JavaScript",
    print_call="console.log",
    segment_template="arm-javascript",
)

TYPESCRIPT = LanguageSpec(
    id="typescript",
    display_name="TypeScript",
    print_call="console.log",
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

PYTHON_TYPED = LanguageSpec(
    id="python-typed",
    display_name="Python",
    print_call="print",
    segment_template="arm-python-typed",
    module_extensions=("py",),
    module_key=snake_key,
    import_line_of=python_import_line,
    signature_of=python_signature,
    param_spelling=python_param_spelling,
    declarations_of=python_declarations,
    returns_of=python_returns,
    document_module=python_module_documentation,
)

LANGUAGES = {spec.id: spec for spec in (JAVASCRIPT, TYPESCRIPT, PYTHON, PYTHON_TYPED)}
