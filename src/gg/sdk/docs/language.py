"""What a language arm contributes to the prompt and the documentation (`LanguageSpec`): its name,
its print call, its prompt segment, the import line of a module, the spelling of a signature, a
parameter, the declared types and a result, and how its code modules are named (`module_key`),
written (`module_extensions`, preferred first) and documented (`document_module`). The arms'
values are `gg.sandbox.languages`; the documentation reads any of them through this one shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gg.sdk.codemodule import CodeModule
from gg.sdk.docs.index import DocEntry
from gg.sdk.registry import Operation, Param, Registry


@dataclass(frozen=True)
class LanguageSpec:
    id: str
    display_name: str
    print_call: str
    segment_template: str
    module_extensions: tuple[str, ...]
    module_key: Callable[[str], str]
    import_line_of: Callable[[str], str]
    signature_of: Callable[[Operation], str]
    param_spelling: Callable[[Param], tuple[str, str]]
    declarations_of: Callable[[Registry], dict[str, str]]
    returns_of: Callable[[Operation], str]
    document_module: Callable[[CodeModule, str], list[DocEntry]]

    def import_line(self, family: str) -> str:
        return self.import_line_of(family)

    def signature(self, op: Operation) -> str:
        return self.signature_of(op)
