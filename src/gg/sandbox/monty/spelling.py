"""The SDK in Python's spelling, generated from the registry: names, types, signatures, record
shapes, and the stubs the checked twin (`python-typed`) is type-checked against.

Rules kept here:
- a function is `gg.<family>.<key>`; parameters kept in place come first (an optional one defaults to
  `None`), then `*` and the keyword-only ones, each `<type> | None = None`;
- a name that is a Python keyword takes a trailing `_` (`from` → `from_`); record fields are the
  wire's names in snake_case (`firstLine` → `first_line`);
- a record is a frozen dataclass (`@final`), a union and a choice are type aliases; a wire `number`
  in a result is `int` (every such field counts something), `unknown` is `Any`;
- a host function's types are spelled from their shapes (`float` apart from `int`); its records
  are `TypedDict`s, their fields as their author wrote them (`NotRequired` when optional; in the
  call form, `TypedDict("Name", {...})`, when a field's name cannot be a class attribute), and an
  optional parameter whose type takes None is not widened again;
- each family's stub (`gg/<family>.pyi`) declares its own records, unions and choices and imports
  the ones other families own; `gg/__init__.pyi` re-exports every family and `core`, and spells
  `ApiError` as what it is at run time, `OSError`; `lib` is a module whose every name is `Any`.
"""

from __future__ import annotations

import json
import keyword
from collections.abc import Iterable
from dataclasses import dataclass

from gg.sdk.registry import Operation, Param, ParamType, Registry
from gg.sdk.shapes import accepts_null, named, py
from gg.sdk.types import Choice, Field, Record, Term, TypeDecl, Union, field_names, terms
from gg.wire import snake

API_ERROR_CLASS = "OSError"  # what `gg.ApiError` is inside the engine, which has no exception subclasses
LIB_STUB = "from typing import Any\n\ndef __getattr__(name: str) -> Any: ...\n"

_PARAM_TYPES = {
    ParamType.STRING: "str",
    ParamType.U32: "int",
    ParamType.COUNT: "int",
    ParamType.POSITIVE_NUMBER: "float",
    ParamType.STRING_LIST: "list[str]",
    ParamType.ANY: "Any",
    ParamType.DOC_TARGET: "str | Callable[..., Any]",
    ParamType.TURN_SPANS: "list[dict[str, int]]",
    ParamType.CLEARABLE_STRING: "str",
}
_PRIMITIVES = {
    "string": "str",
    "number": "int",
    "boolean": "bool",
    "void": "None",
    "unknown": "Any",
    "null": "None",
}


def py_name(name: str) -> str:
    """`name` as a Python identifier: a keyword takes a trailing `_`."""
    return f"{name}_" if keyword.iskeyword(name) or keyword.issoftkeyword(name) else name


def field_name(wire: str) -> str:
    """A record field's Python name: the wire name in snake_case (`notShownReason` → `not_shown_reason`)."""
    return py_name(snake(wire))


def py_type(expression: str) -> str:
    """A registry type expression in Python's spelling: `DirEntry[] | null` → `list[DirEntry] | None`."""
    return " | ".join(dict.fromkeys(_term_type(term) for term in terms(expression)))


def _term_type(term: Term) -> str:
    spelled = f"Literal[{term.base}]" if term.is_literal else _PRIMITIVES.get(term.base, term.base)
    for _ in range(term.depth):
        spelled = f"list[{spelled}]"
    return spelled


def param_type(param: Param) -> str:
    return py(param.shape) if param.shape is not None else _PARAM_TYPES[param.type]


def parameters(op: Operation) -> list[str]:
    """`["path: str", "*", "offset: int | None = None"]`: Python's parameter list for `op`."""
    spelled = [_parameter(param) for param in op.params if param.in_place]
    keyword_only = [p for p in op.params if not p.in_place]
    if keyword_only:
        spelled.append("*")
        spelled.extend(_parameter(p) for p in keyword_only)
    return spelled


def _parameter(param: Param) -> str:
    """`offset: int | None = None`: an optional parameter defaults to None, which leaves it out."""
    spelled = f"{py_name(param.name)}: {param_type(param)}"
    if param.required:
        return spelled
    takes_none = param.shape is not None and accepts_null(param.shape)
    return f"{spelled} = None" if takes_none else f"{spelled} | None = None"


def returns_type(op: Operation) -> str:
    """What a call hands back, as Python spells it (`FileRead`, `None`)."""
    if op.result is not None and op.returns != "void":
        return py(op.result)
    return py_type(op.returns)


def signature(op: Operation) -> str:
    """The prompt's line for `op`: `gg.files.read_file(path: str, *, offset: int | None = None, ...)
    -> FileRead`."""
    return f"gg.{op.family}.{op.key}({', '.join(parameters(op))}) -> {returns_type(op)}"


@dataclass(frozen=True)
class PyAlias:
    """An alias method of a record: `summary.source()` calls `operation` with the record's `field`,
    then the method's own arguments (`handle.send(message)`): the operation's parameters after
    its first."""

    method: str
    returns: str  # the Python type of what it hands back
    operation: str  # wire key of the operation it calls
    field: str  # the record field passed, in Python's spelling
    params: tuple[str, ...] = ()  # the method's own parameters, typed (`message: str`)
    passed: tuple[str, ...] = ()  # how the method passes them on (`message`, `limit=limit`)

    @property
    def signature(self) -> str:
        return ", ".join(("self", *self.params))


def alias_methods(registry: Registry) -> dict[str, list[PyAlias]]:
    """For each record name, its alias methods."""
    methods: dict[str, list[PyAlias]] = {}
    for op, alias in registry.aliases():
        target = registry.get(alias.operation)
        returns = "Any" if target is None else returns_type(target)
        params, passed = _alias_arguments(target)
        spelled = PyAlias(
            py_name(alias.method), returns, alias.operation, field_name(alias.field), params, passed
        )
        for name in _records_named(registry, op.returned_names()):
            methods.setdefault(name, []).append(spelled)
    return methods


def _alias_arguments(target: Operation | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An alias method's own parameters and how it passes them on: the target's after its first."""
    if target is None:
        return (), ()
    passed = [py_name(p.name) for p in target.params[1:] if p.in_place]
    passed += [f"{py_name(p.name)}={py_name(p.name)}" for p in target.params if not p.in_place]
    return tuple(parameters(target)[1:]), tuple(passed)


def _records_named(registry: Registry, names: Iterable[str]) -> list[str]:
    """The records among `names`, a union standing for its members."""
    found: list[str] = []
    for name in names:
        decl = registry.types.get(name)
        if isinstance(decl, Record):
            found.append(name)
        elif isinstance(decl, Union):
            found.extend(member for member in decl.members if isinstance(registry.types.get(member), Record))
    return found


def param_spelling(param: Param) -> tuple[str, str]:
    """How the documentation names a parameter and its type: `("offset", "int")`."""
    return py_name(param.name), param_type(param)


def declarations(registry: Registry) -> dict[str, str]:
    """Each declared type as the documentation quotes it, by name: a record as its dataclass, each
    field and alias method with its doc line; a union or choice as its alias."""
    methods = alias_methods(registry)
    return {name: declaration(decl, methods.get(name, ())) for name, decl in registry.types.items()}


def declaration(decl: TypeDecl, methods: Iterable[PyAlias] = ()) -> str:
    match decl:
        case Record(plain=True) if not _class_spellable(decl):
            return _typed_dict_call(decl)
        case Record(plain=True):
            lines = [f"class {decl.name}(TypedDict):"]
            for f, line in _typed_dict(decl):
                lines.append(f"    {line}  # {f.doc}" if f.doc else f"    {line}")
            return "\n".join(lines if len(lines) > 1 else [*lines, "    pass"])
        case Record():
            docs = {field_name(f.name): f.doc for f in decl.fields}
            lines = ["@dataclass(frozen=True)", f"class {decl.name}:"]
            for name, kind, optional in record_fields(decl):
                spelled = f"{name}: {kind} | None = None" if optional else f"{name}: {kind}"
                lines.append(f"    {spelled}  # {docs[name]}")
            for alias in methods:
                called = f"calls gg.{alias.operation} with `{alias.field}`"
                lines.append(f"    def {alias.method}({alias.signature}) -> {alias.returns}: ...  # {called}")
            return "\n".join(lines)
        case Union() | Choice():
            return _stub_declaration(decl, ())[0]


def record_fields(record: Record) -> list[tuple[str, str, bool]]:
    """(Python name, Python type, optional) for each field, required ones first (a dataclass needs
    its defaulted fields last)."""
    spelled = [(field_name(f.name), py_type(f.type), f.optional) for f in record.fields]
    return [f for f in spelled if not f[2]] + [f for f in spelled if f[2]]


def _typed_dict(record: Record) -> list[tuple[Field, str]]:
    """Each field of a plain record as its `TypedDict` writes it: `note: NotRequired[str | None]`."""
    lines: list[tuple[Field, str]] = []
    for f in record.fields:
        kind = py(f.shape) if f.shape is not None else py_type(f.type)
        lines.append((f, f"{f.name}: NotRequired[{kind}]" if f.optional else f"{f.name}: {kind}"))
    return lines


def type_shape(decl: TypeDecl, methods: Iterable[PyAlias] = ()) -> str:
    """One record, union or choice as the prompt shows it in Python's spelling."""
    match decl:
        case Record():
            parts = [
                f"{name}: {kind}{' | None' if optional else ''}"
                for name, kind, optional in record_fields(decl)
            ]
            parts.extend(f"{alias.method}() -> {alias.returns}" for alias in methods)
            return f"{decl.name}({', '.join(parts)})"
        case Union(members=members):
            return " | ".join(members)
        case Choice(values=values):
            return " | ".join(f'"{value}"' for value in values)


def type_shapes(registry: Registry) -> dict[str, str]:
    """Every declared type's shape for the prompt, by name, in declaration order."""
    methods = alias_methods(registry)
    return {name: type_shape(decl, methods.get(name, ())) for name, decl in registry.types.items()}


# ---- stubs -------------------------------------------------------------------------------------


def stubs(registry: Registry) -> dict[str, str]:
    """The `.pyi` text of every module a program may import, by dotted name (`gg`, `gg.files`, ...)."""
    families = sdk_families(registry)
    methods = alias_methods(registry)
    modules = {f"gg.{family}": family_stub(registry, family, methods) for family in families}
    modules["gg.core"] = CORE_STUB
    exports = ", ".join(f"{name} as {name}" for name in [*families, "core"])
    modules["gg"] = f"from gg import {exports}\n\nApiError = {API_ERROR_CLASS}\n"
    return modules


CORE_STUB = f"""from dataclasses import dataclass

ApiError = {API_ERROR_CLASS}


@dataclass(frozen=True)
class ApiErrorDetails:
    operation: str
    code: str
    message: str


def details(error: BaseException) -> ApiErrorDetails: ...
"""


def sdk_families(registry: Registry) -> list[str]:
    """Every family with an operation or a declared type, operations' families first."""
    return list(dict.fromkeys([*registry.families(), *(decl.family for decl in registry.types.values())]))


def family_stub(registry: Registry, family: str, methods: dict[str, list[PyAlias]]) -> str:
    own = [decl for decl in registry.types.values() if decl.family == family]
    operations = registry.in_family(family)
    lines = [
        "from collections.abc import Callable",
        "from dataclasses import dataclass",
        "from typing import Any, Literal, NotRequired, TypedDict, final",
    ]
    lines.extend(_imports(registry, family, own, operations))
    for decl in own:
        lines.extend(["", *_stub_declaration(decl, methods.get(decl.name, ()))])
    lines.append("")
    lines.extend(f"def {op.key}({', '.join(parameters(op))}) -> {returns_type(op)}: ..." for op in operations)
    return "\n".join(lines) + "\n"


def _imports(registry: Registry, family: str, own: list[TypeDecl], operations: list[Operation]) -> list[str]:
    """`from gg.<other> import Name` for each type this family's stub names but does not own."""
    used: list[str] = []
    for op in operations:
        used.extend(op.returned_names())
        used.extend(name for p in op.params if p.shape is not None for name in _shape_names(p))
    for decl in own:
        if isinstance(decl, Record):
            used.extend(name for f in decl.fields for name in field_names(f))
        elif isinstance(decl, Union):
            used.extend(decl.members)
    by_family: dict[str, list[str]] = {}
    for name in dict.fromkeys(used):
        decl = registry.types.get(name)
        if decl is not None and decl.family != family:
            by_family.setdefault(decl.family, []).append(name)
    return [f"from gg.{other} import {', '.join(names)}" for other, names in by_family.items()]


def _shape_names(param: Param) -> list[str]:
    return [] if param.shape is None else named(param.shape)


def _class_spellable(record: Record) -> bool:
    """Whether every field of a plain record can be a class attribute (an identifier, no keyword)."""
    return all(f.name.isidentifier() and not keyword.iskeyword(f.name) for f in record.fields)


def _typed_dict_call(record: Record) -> str:
    """A plain record whose field names a class cannot hold (`due-date`), in the call form:
    `Name = TypedDict("Name", {"due-date": str})`."""
    entries = []
    for f in record.fields:
        kind = py(f.shape) if f.shape is not None else py_type(f.type)
        entries.append(f"{json.dumps(f.name)}: {f'NotRequired[{kind}]' if f.optional else kind}")
    return f"{record.name} = TypedDict({json.dumps(record.name)}, {{{', '.join(entries)}}})"


def _stub_declaration(decl: TypeDecl, methods: Iterable[PyAlias]) -> list[str]:
    match decl:
        case Record(plain=True) if not _class_spellable(decl):
            return [_typed_dict_call(decl)]
        case Record(plain=True):
            lines = [f"class {decl.name}(TypedDict):", *(f"    {line}" for _, line in _typed_dict(decl))]
            return lines if len(lines) > 1 else [*lines, "    pass"]
        case Record():
            lines = ["@final", "@dataclass(frozen=True)", f"class {decl.name}:"]
            for name, kind, optional in record_fields(decl):
                lines.append(f"    {name}: {kind} | None = None" if optional else f"    {name}: {kind}")
            lines.extend(
                f"    def {alias.method}({alias.signature}) -> {alias.returns}: ..." for alias in methods
            )
            if len(lines) == 3:
                lines.append("    pass")
            return lines
        case Union(members=members):
            return [f"{decl.name} = {' | '.join(members)}"]
        case Choice(values=values):
            return [f"{decl.name} = Literal[{', '.join(repr(value) for value in values)}]"]
