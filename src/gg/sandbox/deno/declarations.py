"""The SDK in TypeScript's spelling, generated from the registry: signatures, type declarations and
the whole `gg.d.ts` the TypeScript arm is checked against.

Rules kept here:
- a function is spelled `readFile(path: string, options?: { offset?: number; limit?: number }):
  FileRead`: parameters kept in place first (an optional one marked `?`), then the options object
  when any parameter travels in it;
- a record is an `interface`, a union and a choice are `type` aliases; every field and alias method
  carries its doc line as a trailing comment; a field whose name is no identifier is quoted; an
  alias method takes the parameters of the operation it calls after the first (which the record's
  field fills) and returns what it returns;
- `gg.d.ts` holds one ambient module per specifier (`gg`, `gg:<family>` for every family with an
  operation or a type, `gg:core`), declares every operation whoever may call it, declares `lib:*`
  as a module whose bindings are all `any`, and opens with the guest's globals (`globals.d.ts`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import cache

from gg.errors import ErrorCode
from gg.sandbox.deno.bundle import GUEST_DIR, js_identifier
from gg.sdk.registry import Operation, Param, ParamType, Registry
from gg.sdk.shapes import named, ts
from gg.sdk.types import Choice, Record, TypeDecl, Union, referenced
from gg.wire import camel

_PARAM_TYPES = {
    ParamType.STRING: "string",
    ParamType.U32: "number",
    ParamType.COUNT: "number",
    ParamType.POSITIVE_NUMBER: "number",
    ParamType.STRING_LIST: "string[]",
    ParamType.ANY: "unknown",
    ParamType.DOC_TARGET: "string | ((...args: any[]) => unknown)",
    ParamType.TURN_SPANS: "{ from: number; to: number }[]",
    ParamType.CLEARABLE_STRING: "string | null",
}
INDENT = "  "
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def ts_param_type(param: Param) -> str:
    """A parameter's type: its shape's spelling (a host function's), else its `ParamType`'s."""
    return ts(param.shape) if param.shape is not None else _PARAM_TYPES[param.type]


def ts_parameters(op: Operation) -> list[str]:
    """`["path: string", "options?: { offset?: number; limit?: number }"]`."""
    spelled = [
        f"{js_identifier(p.wire)}{'' if p.required else '?'}: {ts_param_type(p)}"
        for p in op.params
        if p.in_place
    ]
    optional = [f"{p.wire}?: {ts_param_type(p)}" for p in op.params if not p.in_place]
    if optional:
        spelled.append(f"options?: {{ {'; '.join(optional)} }}")
    return spelled


def ts_signature(op: Operation) -> str:
    """The function as TypeScript declares it, without its family: `readFile(...): FileRead`."""
    return f"{op.js_name}({', '.join(ts_parameters(op))}): {op.returns}"


def alias_methods(registry: Registry) -> dict[str, list[tuple[str, str]]]:
    """For each record name, its alias methods as (declaration, doc line)."""
    methods: dict[str, list[tuple[str, str]]] = {}
    for op, alias in registry.aliases():
        target = registry.get(alias.operation)
        returns = "unknown" if target is None else target.returns
        called = alias.operation if target is None else target.qualified("typescript")
        rest = [] if target is None else ts_parameters(target)[1:]
        for name in op.returned_names():
            method = f"{camel(alias.method)}({', '.join(rest)}): {returns}"
            methods.setdefault(name, []).append(
                (method, f"calls {called} with this record's `{alias.field}`")
            )
    return methods


def ts_declaration(decl: TypeDecl, methods: Sequence[tuple[str, str]] = ()) -> str:
    """The declaration of one type, each member on its own line with its doc line."""
    match decl:
        case Record(name=name, fields=fields):
            lines = [f"interface {name} {{"]
            for field in fields:
                mark = "?" if field.optional else ""
                comment = f" // {field.doc}" if field.doc else ""
                lines.append(f"{INDENT}{_member(field.name)}{mark}: {field.type};{comment}")
            lines.extend(f"{INDENT}{method}; // {doc}" for method, doc in methods)
            lines.append("}")
            return "\n".join(lines)
        case Union(name=name, members=members):
            return f"type {name} = {' | '.join(members)};"
        case Choice(name=name, values=values):
            quoted = " | ".join(f'"{value}"' for value in values)
            return f"type {name} = {quoted};"


def _member(name: str) -> str:
    """A record field's name as TypeScript writes a member: quoted when it is no identifier (a
    JSON Schema property such as `due-date`)."""
    return name if _IDENTIFIER.fullmatch(name) else json.dumps(name)


# ---- gg.d.ts ---------------------------------------------------------------------------------


def declarations(registry: Registry) -> str:
    """The whole `gg.d.ts` for `registry`."""
    families = _families(registry)
    methods = alias_methods(registry)
    parts = [
        "// gg.d.ts, generated from gg's operation registry: one ambient module per specifier.",
        _globals(),
        _core_module(),
    ]
    parts.extend(_family_module(registry, family, methods) for family in families)
    parts.append(_aggregate_module(families))
    parts.append('declare module "lib:*";')
    return "\n\n".join(parts) + "\n"


def _families(registry: Registry) -> list[str]:
    owners = [decl.family for decl in registry.types.values()]
    return list(dict.fromkeys([*registry.families(), *owners]))


_CORE_MODULE = """declare module "gg:core" {
  export type ApiErrorCode = CODES;
  export class ApiError extends Error {
    constructor(operation: string, code: ApiErrorCode, message: string);
    name: "ApiError";
    operation: string;
    code: ApiErrorCode;
    toJSON(): { name: "ApiError"; operation: string; code: ApiErrorCode; message: string };
  }
}"""


def _core_module() -> str:
    """`gg:core`: the one error class, its codes spelled from `ErrorCode`."""
    return _CORE_MODULE.replace("CODES", " | ".join(f'"{code.value}"' for code in ErrorCode))


def _family_module(registry: Registry, family: str, methods: dict[str, list[tuple[str, str]]]) -> str:
    own = [decl for decl in registry.types.values() if decl.family == family]
    operations = registry.in_family(family)
    lines = [f'declare module "gg:{family}" {{']
    lines.extend(_imports(registry, family, own, operations))
    for decl in own:
        lines.append(f"{INDENT}/** {decl.doc} */")
        declared = ts_declaration(decl, methods.get(decl.name, ()))
        lines.extend(
            f"{INDENT}export {line}" if n == 0 else f"{INDENT}{line}"
            for n, line in enumerate(declared.splitlines())
        )
    for op in operations:
        lines.append(f"{INDENT}/** {op.summary} */")
        lines.append(f"{INDENT}export function {ts_signature(op)};")
    lines.append("}")
    return "\n".join(lines)


def _imports(
    registry: Registry, family: str, own: Iterable[TypeDecl], operations: Iterable[Operation]
) -> list[str]:
    """`import type` lines for the names this module uses that another family declares."""
    used = [name for decl in own for name in referenced(decl)]
    used += [name for op in operations for name in op.returned_names()]
    used += [name for op in operations for p in op.params if p.shape is not None for name in named(p.shape)]
    by_family: dict[str, list[str]] = {}
    for name in dict.fromkeys(used):
        decl = registry.types.get(name)
        if decl is not None and decl.family != family:
            by_family.setdefault(decl.family, []).append(name)
    return [
        f'{INDENT}import type {{ {", ".join(names)} }} from "gg:{owner}";'
        for owner, names in by_family.items()
    ]


def _aggregate_module(families: Iterable[str]) -> str:
    lines = ['declare module "gg" {']
    lines.extend(f'{INDENT}export * as {family} from "gg:{family}";' for family in families)
    lines.append(f'{INDENT}export {{ ApiError }} from "gg:core";')
    lines.append(f'{INDENT}export type {{ ApiErrorCode }} from "gg:core";')
    lines.append("}")
    return "\n".join(lines)


@cache
def _globals() -> str:
    return (GUEST_DIR / "globals.d.ts").read_text(encoding="utf-8").strip()
