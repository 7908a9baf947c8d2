"""The Python guest's SDK, generated from the registry, and the bundle a Python worker boots with.

The engine (Monty) has no exception subclasses, no class inheritance and no modules written in
Python, so the SDK a program imports is built inside the sandbox, before each program, by the
*prelude*: a Python source run with `exec` in a namespace of its own, which leaves nothing in the
program's. It builds:
- one module object per family (`gg.files`), whose class is named for the module, holding one
  function per operation (`read_file(path, *, offset=None, limit=None)`: required parameters and
  positional optional ones in place, the others keyword-only) and the records the family owns;
- each function calls the host function of the same path (`gg.files.read_file` of the host module)
  with every parameter in declared order (`None` for one left out), then the keywords it does not
  declare (a dict, refused by the worker unless empty), and turns the answer into the
  declared result: a record becomes a frozen dataclass with snake_case fields (`first_line`) and its
  alias methods (`summary.source()`); a union picks its member by the `kind` field; a choice stays
  a string; lists and `null` are followed; anything undeclared comes back as the wire sent it;
- a parameter taking documentation (`ParamType.DOC_TARGET`) turns an SDK function into its key;
- a host function's arguments and answer cross as plain data, and its records are plain dicts
  (a record's name is `dict`, as a `TypedDict`'s is at run time);
- `gg` (every family, `core`, and `ApiError`), `gg.core` (`ApiError`), and an empty `lib`;
- `ApiError` is the engine's `OSError` (`worker.hostcall.API_ERROR_CLASS`).

Every sentence the worker itself raises (argument checks, the host-call cap) is rendered here from
the prompt templates, with `{name}`-style holes the worker fills in.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from gg.prompts import render
from gg.sandbox.execution import MAX_LOG_LINE_BYTES, MAX_LOG_LINES, MAX_SDK_CALLS
from gg.sandbox.monty.spelling import (
    API_ERROR_CLASS,
    LIB_STUB,
    PyAlias,
    alias_methods,
    field_name,
    py_name,
    record_fields,
    sdk_families,
    stubs,
)
from gg.sandbox.monty.worker.capture import function_spans
from gg.sdk.registry import WHOLE_RANGES, Operation, Param, ParamType, Registry
from gg.sdk.shape_check import PLAIN_DEPTH
from gg.sdk.types import Record, Union, terms

UNKNOWN_OPTIONS = "_unknown"  # every keyword a function does not declare, handed on to be refused

_HEAD = """import gg as _host
from dataclasses import dataclass


def _module_repr(self):
    return "<module '" + type(self).__name__ + "'>"


def _module(name):
    return type(name, (), {"__repr__": _module_repr})()


def _doc(target):
    if type(target) is str:
        return target
    for function, key in _DOCS:
        if function is target:
            return key
    return {"foreign": type(target).__name__}


_DOCS = []


@dataclass(frozen=True)
class ApiErrorDetails:
    operation: object
    code: object
    message: object


def _error_details(error):
    parts = str(error).split(": ", 2)
    if len(parts) != 3:
        raise ValueError("gg.core.details takes an error raised by a gg call")
    return ApiErrorDetails(parts[0], parts[1], parts[2])
"""


@dataclass(frozen=True)
class PyBundle:
    """What a Python worker is started with: the prelude, each host function's parameters, the
    type-check stubs, the worker's own sentences, and the spans of the prelude's functions (so a
    traceback can leave them out)."""

    prelude: str
    operations: dict[str, dict[str, Any]]
    stubs: dict[str, str]
    words: dict[str, str]
    prelude_spans: list[tuple[str, int, int]]
    host_call_cap: int = MAX_SDK_CALLS

    def init_message(self) -> dict[str, Any]:
        return {
            "t": "init",
            "prelude": self.prelude,
            "operations": self.operations,
            "stubs": self.stubs,
            "words": self.words,
            "preludeSpans": [list(span) for span in self.prelude_spans],
            "maxHostCalls": self.host_call_cap,
            "maxLogLines": MAX_LOG_LINES,
            "maxLogLineChars": MAX_LOG_LINE_BYTES,
        }


def build_bundle(
    registry: Registry,
    language: str = "python",
    host_call_cap: int = MAX_SDK_CALLS,
    declared: Registry | None = None,
) -> PyBundle:
    """Everything a worker needs for `registry`, ready to send; documentation keys are spelled
    for `language` (`python` or `python-typed`); the stubs are `declared`'s (`registry`'s when None)."""
    prelude = prelude_source(registry, language)
    module_stubs = {**stubs(declared or registry), "lib": LIB_STUB}
    words = worker_words(host_call_cap)
    return PyBundle(
        prelude, host_operations(registry), module_stubs, words, function_spans(prelude), host_call_cap
    )


def module_names(registry: Registry) -> dict[str, list[str]]:
    """What each module the prelude builds declares, by dotted name: `gg` its families, `core` and
    `ApiError`; a family its functions and records; `gg.core` `ApiError` and `details`."""
    families = sdk_families(registry)
    names = {"gg": [*families, "core", "ApiError"], "gg.core": ["ApiError", "ApiErrorDetails", "details"]}
    for family in families:
        functions = [py_name(op.key) for op in registry.in_family(family)]
        records = [d.name for d in registry.types.values() if d.family == family and isinstance(d, Record)]
        names[f"gg.{family}"] = functions + records
    return names


def host_operations(registry: Registry) -> dict[str, dict[str, Any]]:
    """Each host function (`gg.files.read_file`) with its operation and parameters in call order:
    `[python name, wire name, type, required, checked by the SDK]`."""
    return {
        f"gg.{op.wire}": {
            "key": op.key,
            "wire": op.wire,
            "params": [
                [py_name(p.name), p.wire, p.type.value, p.required, p.checked_by_sdk] for p in op.params
            ],
        }
        for op in registry
    }


def worker_words(host_call_cap: int = MAX_SDK_CALLS) -> dict[str, str]:
    """The worker's sentences, rendered once; `{name}`, `{got}`, `{function}` stay holes."""
    holes = {"name": "{name}", "got": "{got}", "function": "{function}"}
    unknown = {"function": "{function}", "name": "{name}"}
    return {
        "argString": render("py-arg-string", **holes),
        "argU32": _whole("py-arg-u32", ParamType.U32, holes),
        "argCount": _whole("py-arg-u32", ParamType.COUNT, holes),
        "argPositive": render("py-arg-positive", **holes),
        "argStringList": render("py-arg-string-list", **holes),
        "argListEntry": render("py-arg-list-entry", **holes),
        "argSpanList": render("py-arg-span-list", **holes),
        "argSpanEntry": render("py-arg-span-entry", **holes),
        "argSpanBounds": render("py-arg-span-bounds", **holes),
        "argPlainData": render("arg-plain-data", python=True, depth=PLAIN_DEPTH, **holes),
        "argDocTarget": render("py-arg-doc-target", **holes),
        "argDocForeign": render("py-arg-doc-foreign", **holes),
        "hostCallCap": render("sdk-call-cap", cap=f"{host_call_cap:,}"),
        "argUnknownOption": render("unknown-option", known="{known}", **unknown),
        "argNoOptions": render("unknown-option", known="", **unknown),
    }


# ---- the prelude -------------------------------------------------------------------------------


def prelude_source(registry: Registry, language: str = "python") -> str:
    """The whole prelude for `registry` (see the module docstring)."""
    parts = [_HEAD]
    methods = alias_methods(registry)
    for decl in registry.types.values():
        if isinstance(decl, Record) and not decl.plain:
            parts.append(_record_class(decl, methods.get(decl.name, ())))
    parts.extend(_converters(registry))
    families = sdk_families(registry)
    for family in families:
        parts.append(_family_factory(registry, family, language))
    parts.append(_assembly(families))
    return "\n\n".join(part.strip("\n") for part in parts) + "\n"


def _record_class(record: Record, methods: Sequence[PyAlias]) -> str:
    lines = ["@dataclass(frozen=True)", f"class {record.name}:"]
    for name, _kind, optional in record_fields(record):
        lines.append(f"    {name}: object = None" if optional else f"    {name}: object")
    for alias in methods:
        family, key = alias.operation.split(".", 1)
        passed = ", ".join((f"self.{alias.field}", *alias.passed))
        lines.extend(
            [
                "",
                f"    def {alias.method}({_untyped(alias.signature)}):",
                f"        return _gg.{family}.{py_name(key)}({passed})",
            ]
        )
    if len(lines) == 2:
        lines.append("    pass")
    return "\n".join(lines)


def _untyped(signature: str) -> str:
    """A typed parameter list without its annotations: `self, limit: int | None = None` →
    `self, limit=None`."""
    spelled: list[str] = []
    for param in signature.split(", "):
        name, _, rest = param.partition(":")
        spelled.append(f"{name}=None" if rest.endswith("= None") else name)
    return ", ".join(spelled)


def _converters(registry: Registry) -> Iterator[str]:
    """`_to_<Name>(v)` for every record and union: wire value → the Python value."""
    for name, decl in registry.types.items():
        if isinstance(decl, Record) and not decl.plain:
            fields = []
            for f in decl.fields:
                read = f'v.get("{f.name}")' if f.optional else f'v["{f.name}"]'
                kind = f"{f.type} | null" if f.optional else f.type  # an optional field may be absent
                fields.append(f"{field_name(f.name)}={converted(registry, kind, read)}")
            yield f"def _to_{name}(v):\n    return {name}({', '.join(fields)})"
        elif isinstance(decl, Union):
            lines = [f"def _to_{name}(v):", '    kind = v.get("kind") if type(v) is dict else None']
            for member in decl.members:
                kind = _literal_kind(registry, member)
                if kind is not None:
                    lines.append(f"    if kind == {kind}:\n        return _to_{member}(v)")
            lines.append("    return v")
            yield "\n".join(lines)


def _literal_kind(registry: Registry, member: str) -> str | None:
    """The literal (`"text"`) of a union member's `kind` field, as Python source."""
    decl = registry.types.get(member)
    if not isinstance(decl, Record):
        return None
    for f in decl.fields:
        kinds = terms(f.type)
        if f.name == "kind" and len(kinds) == 1 and kinds[0].is_literal:
            return kinds[0].base
    return None


def converted(registry: Registry, expression: str, value: str) -> str:
    """Python source turning `value` (source of a wire value) into the declared `expression`.

    A value of one declared record or union (optionally `null`, optionally in lists) is converted;
    anything else (primitives, choices, mixtures) is handed back as it is."""
    alternatives = terms(expression)
    named = [t for t in alternatives if t.is_name and _converted_type(registry, t.base)]
    if len(named) != 1:
        return value
    term = named[0]
    body = f"_to_{term.base}(x{term.depth - 1})" if term.depth else f"_to_{term.base}({value})"
    for level in reversed(range(term.depth)):
        source = value if level == 0 else f"x{level - 1}"
        body = f"[{body} for x{level} in {source}]"
    if any(t.base == "null" for t in alternatives):
        return f"(None if {value} is None else {body})"
    return body


def _converted_type(registry: Registry, name: str) -> bool:
    """Whether a value of the declared type `name` is converted: a record or union of gg's own."""
    decl = registry.types.get(name)
    return isinstance(decl, Union) or (isinstance(decl, Record) and not decl.plain)


def _family_factory(registry: Registry, family: str, language: str) -> str:
    lines = [f"def _family_{family}():", f'    m = _module("gg.{family}")']
    for op in registry.in_family(family):
        lines.extend(_function(registry, op, language))
    for decl in registry.types.values():
        if decl.family == family and isinstance(decl, Record):
            lines.append(f"    m.{decl.name} = {'dict' if decl.plain else decl.name}")
    lines.append("    return m")
    return "\n".join(lines)


def _function(registry: Registry, op: Operation, language: str) -> list[str]:
    name = py_name(op.key)
    arguments = ", ".join([*(_argument(p) for p in op.params), UNKNOWN_OPTIONS])
    call = f"_host.{op.family}.{op.key}({arguments})"
    result = "v" if op.result is not None else converted(registry, op.returns, "v")
    body = (
        [f"        return {call}"] if result == "v" else [f"        v = {call}", f"        return {result}"]
    )
    return [
        "",
        f"    def {name}({_parameter_list(op)}):",
        *body,
        f"    m.{name} = {name}",
        f'    _DOCS.append(({name}, "{op.qualified(language)}"))',
    ]


def _argument(param: Param) -> str:
    name = py_name(param.name)
    return f"_doc({name})" if param.type is ParamType.DOC_TARGET else name


def _parameter_list(op: Operation) -> str:
    spelled = [py_name(p.name) if p.required else f"{py_name(p.name)}=None" for p in op.params if p.in_place]
    keyword_only = [f"{py_name(p.name)}=None" for p in op.params if not p.in_place]
    if keyword_only:
        spelled.extend(["*", *keyword_only])
    spelled.append(f"**{UNKNOWN_OPTIONS}")
    return ", ".join(spelled)


def _assembly(families: list[str]) -> str:
    lines = ['_gg = _module("gg")']
    lines.extend(f"_gg.{family} = _family_{family}()" for family in families)
    lines.extend(
        [
            '_core = _module("gg.core")',
            f"_core.ApiError = {API_ERROR_CLASS}",
            "_core.details = _error_details",
            "_core.ApiErrorDetails = ApiErrorDetails",
            "_gg.core = _core",
            f"_gg.ApiError = {API_ERROR_CLASS}",
            '_lib = _module("lib")',
        ]
    )
    return "\n".join(lines)


def _whole(template: str, kind: ParamType, holes: dict[str, str]) -> str:
    """The refusal of a whole number outside `kind`'s range, stating that range."""
    least, most = WHOLE_RANGES[kind]
    return render(template, least=least, max=most, **holes)
