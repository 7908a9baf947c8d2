"""What each language arm contributes to the prompt: its name, its print call, its prompt segment,
the import line of a module and the spelling of a signature."""

from __future__ import annotations

from dataclasses import dataclass

from gg.sdk.registry import Operation, ParamType

_TS_TYPES = {
    ParamType.STRING: "string",
    ParamType.U32: "number",
    ParamType.POSITIVE_NUMBER: "number",
    ParamType.STRING_LIST: "string[]",
    ParamType.ANY: "unknown",
}


@dataclass(frozen=True)
class LanguageSpec:
    id: str
    display_name: str
    print_call: str
    segment_template: str

    def import_line(self, family: str) -> str:
        return f'import {{ {family} }} from "gg";'

    def signature(self, op: Operation) -> str:
        """`files.readFile(path: string, options?: {offset?: number, limit?: number}): FileRead`."""
        required = [
            f"{p.wire}{'' if p.required else '?'}: {_TS_TYPES[p.type]}" for p in op.params if p.in_place
        ]
        optional = [f"{p.wire}?: {_TS_TYPES[p.type]}" for p in op.params if not p.in_place]
        if optional:
            required.append(f"options?: {{{', '.join(optional)}}}")
        return f"{op.family}.{op.js_name}({', '.join(required)}): {op.returns}"


JAVASCRIPT = LanguageSpec(
    id="javascript",
    display_name="JavaScript",
    print_call="console.log",
    segment_template="arm-javascript",
)

LANGUAGES = {spec.id: spec for spec in (JAVASCRIPT,)}
