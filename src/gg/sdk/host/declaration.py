"""What a host function declares, read from the function itself: its name, its summary, its
parameters and result as shapes, and the errors it documents. A declaration holds no function,
so a recording can carry it (`to_json` / `from_json`) and a replay serve it with none present.

Rules kept here (each breach is a `TypeError` or `ValueError` naming the function):
- the function's name is snake_case and spells no reserved word in either language (`name=`
  gives it another); its summary is the first paragraph of its docstring (`summary=` overrides),
  and it must have one: it is what the model reads;
- parameters written in place come first, in place in every arm (one with a default is optional);
  keyword-only ones travel in the options object (JavaScript) or as keyword arguments (Python)
  and must have a default; `*args` and `**kwargs` are refused; every parameter and the result are
  annotated (`-> None` for nothing); a parameter's doc line is its `Annotated[T, "doc"]` string,
  followed by its default when that is not None;
- the documented errors are `{code: when}` with gg's error codes; every host function may also
  fail `invalid-argument` (an argument of the wrong type) and `other` (the function failed).
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gg.errors import ErrorCode
from gg.sdk.host.hints import Reading, doc_of, first_paragraph
from gg.sdk.shape_check import object_of
from gg.sdk.shape_json import from_json, record_from_json, record_to_json, to_json
from gg.sdk.shapes import RecordShape, Scalar, ScalarKind, Shape, records_in
from gg.wire import JS_RESERVED, camel

SNAKE_NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class ParamDeclaration:
    name: str  # as Python spells it; the wire and JavaScript spell it camelCase
    shape: Shape
    required: bool = True
    keyword: bool = False  # keyword-only: the options object (JS), a keyword argument (Python)
    doc: str = ""


@dataclass(frozen=True)
class FunctionDeclaration:
    name: str
    summary: str
    params: tuple[ParamDeclaration, ...]
    result: Shape
    errors: tuple[tuple[ErrorCode, str], ...] = ()

    @property
    def returns_nothing(self) -> bool:
        return self.result == Scalar(ScalarKind.NULL)


@dataclass(frozen=True)
class FamilyDeclaration:
    name: str
    doc: str  # the family's brief: one line in the system prompt's module list
    functions: tuple[FunctionDeclaration, ...]

    def records(self) -> list[RecordShape]:
        """Every record the functions reach, each once, a record after those its fields name."""
        found: dict[str, RecordShape] = {}
        for function in self.functions:
            for shape in (*(p.shape for p in function.params), function.result):
                for record in records_in(shape):
                    found.setdefault(record.name, record)
        return list(found.values())


def declare_function(
    function: Callable[..., Any],
    family: str,
    *,
    name: str | None = None,
    summary: str | None = None,
    errors: Mapping[str, str] | None = None,
) -> FunctionDeclaration:
    """The declaration of `function` in `family`. Raises `TypeError` or `ValueError`."""
    key = name or getattr(function, "__name__", "")
    where = f"host function `{family}.{key}`"
    check_name(key, where)
    words = summary if summary is not None else first_paragraph(inspect.getdoc(function) or "")
    if not words.strip():
        raise ValueError(f"{where} needs a docstring: its first paragraph is the summary the model reads")
    hints = _hints(function, where)
    reading = Reading(where)
    params = tuple(_param(parameter, hints, reading, where) for parameter in _parameters(function, where))
    if "return" not in hints:
        raise TypeError(f"{where} must annotate what it returns (`-> None` when it returns nothing)")
    result = Reading(f"{where}'s result").shape(hints["return"])
    return FunctionDeclaration(key, " ".join(words.split()), params, result, _errors(errors or {}, where))


def check_name(name: str, where: str) -> None:
    """A function's or a family's name: snake_case, no reserved word in Python or JavaScript."""
    if not SNAKE_NAME.fullmatch(name):
        raise ValueError(f"{where}: a name must be snake_case (lowercase letters, digits and `_`)")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name) or camel(name) in JS_RESERVED:
        raise ValueError(f"{where}: `{name}` is a reserved word in Python or JavaScript; choose another name")


def _hints(function: Callable[..., Any], where: str) -> dict[str, Any]:
    try:
        return typing.get_type_hints(function, include_extras=True)
    except Exception as unresolved:  # a string annotation naming what the module does not define
        raise TypeError(f"{where}: its annotations cannot be read ({unresolved})") from unresolved


def _parameters(function: Callable[..., Any], where: str) -> list[inspect.Parameter]:
    parameters = list(inspect.signature(function).parameters.values())
    wires = [camel(p.name) for p in parameters]
    for parameter in parameters:
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise TypeError(f"{where}: `*{parameter.name}` cannot be declared; name every parameter")
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is inspect.Parameter.empty:
            raise TypeError(
                f"{where}: the keyword-only parameter `{parameter.name}` needs a default "
                "(it travels in the options object, which a call may leave out)"
            )
        if wires.count(camel(parameter.name)) > 1:
            raise ValueError(
                f"{where}: two parameters are both spelled `{camel(parameter.name)}` in JavaScript"
            )
    return parameters


def _param(
    parameter: inspect.Parameter, hints: dict[str, Any], reading: Reading, where: str
) -> ParamDeclaration:
    if parameter.name not in hints:
        raise TypeError(f"{where}: the parameter `{parameter.name}` needs a type annotation")
    hint = hints[parameter.name]
    reading.where = f"{where}, parameter `{parameter.name}`"
    shape = reading.shape(hint)
    optional = parameter.default is not inspect.Parameter.empty
    doc = doc_of(hint)
    if optional and parameter.default is not None:
        default = f"defaults to {_default(parameter.default)}"
        doc = f"{doc} ({default})" if doc else default
    keyword_only = parameter.kind is inspect.Parameter.KEYWORD_ONLY
    return ParamDeclaration(parameter.name, shape, not optional, keyword_only, doc)


def _default(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _errors(errors: Mapping[str, str], where: str) -> tuple[tuple[ErrorCode, str], ...]:
    codes = {code.value: code for code in ErrorCode}
    declared: list[tuple[ErrorCode, str]] = []
    for code, when in errors.items():
        if code not in codes:
            raise ValueError(f"{where}: `{code}` is not an error code (one of {', '.join(codes)})")
        declared.append((codes[code], str(when)))
    return tuple(declared)


# ---- a recording's form ------------------------------------------------------------------------


def family_to_json(family: FamilyDeclaration) -> dict[str, Any]:
    """A family's declaration as JSON data: its name and doc, every record once, then each function."""
    return {
        "name": family.name,
        "doc": family.doc,
        "records": [record_to_json(record) for record in family.records()],
        "functions": [_function_json(function) for function in family.functions],
    }


def _function_json(function: FunctionDeclaration) -> dict[str, Any]:
    params = [
        {
            "name": p.name,
            "shape": to_json(p.shape),
            "required": p.required,
            "keyword": p.keyword,
            "doc": p.doc,
        }
        for p in function.params
    ]
    return {
        "name": function.name,
        "summary": function.summary,
        "params": params,
        "result": to_json(function.result),
        "errors": [[code.value, when] for code, when in function.errors],
    }


def family_from_json(data: Any) -> FamilyDeclaration:
    """The declaration `family_to_json` wrote. Raises `ValueError`."""
    entry = object_of(data)
    if entry is None or not isinstance(entry.get("name"), str) or not _lists(entry, "records", "functions"):
        raise ValueError("a family's declaration holds its `name`, `records` and `functions`")
    records: dict[str, RecordShape] = {}
    for raw in typing.cast(list[Any], entry["records"]):
        record = record_from_json(raw, records)
        records[record.name] = record
    functions = tuple(_function_from_json(raw, records) for raw in typing.cast(list[Any], entry["functions"]))
    return FamilyDeclaration(str(entry["name"]), str(entry.get("doc", "")), functions)


def _lists(entry: dict[str, Any], *keys: str) -> bool:
    return all(isinstance(entry.get(key), list) for key in keys)


def _function_from_json(data: Any, records: Mapping[str, RecordShape]) -> FunctionDeclaration:
    entry = object_of(data)
    if entry is None or not isinstance(entry.get("name"), str) or not isinstance(entry.get("params"), list):
        raise ValueError("a function's declaration holds its `name` and `params`")
    params = tuple(_param_from_json(raw, records) for raw in typing.cast(list[Any], entry["params"]))
    errors = tuple(
        (ErrorCode(code), str(when)) for code, when in typing.cast(list[Any], entry.get("errors", []))
    )
    result = from_json(entry.get("result"), records)
    return FunctionDeclaration(str(entry["name"]), str(entry.get("summary", "")), params, result, errors)


def _param_from_json(data: Any, records: Mapping[str, RecordShape]) -> ParamDeclaration:
    entry = object_of(data)
    if entry is None or not isinstance(entry.get("name"), str):
        raise ValueError("a parameter's declaration holds its `name`")
    return ParamDeclaration(
        str(entry["name"]),
        from_json(entry.get("shape"), records),
        bool(entry.get("required", True)),
        bool(entry.get("keyword", False)),
        str(entry.get("doc", "")),
    )
