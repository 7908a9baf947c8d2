"""One SDK call as the worker serves it: the program's arguments checked and spelled for the wire,
relayed to gg, and the answer turned into what the program's call returns or raises.

Rules kept here (the prelude passes every parameter in declared order, `None` for one left out):
- an optional parameter given `None` is left out; a required one must be given;
- `string` (and `string?`, whose `None` is left out like any other): a `str`, else a `TypeError`
  naming the function (an `ApiError` when the SDK checks it itself); `u32`: a whole number
  0..4294967295 (a whole `float` is taken as an `int`; `bool` never); `positiveNumber`: a finite
  number above 0; `string[]`: a list or tuple of `str`, never a bare `str`; `any`: plain JSON
  data (None, bools, finite numbers, strings, lists and tuples, string-keyed dicts) at most
  `PLAIN_DEPTH` deep, else refused naming where in the argument (`data["ids"][0]`) the first
  thing that is not, and its type (`set`, `nan`);
  `docTarget`: a documentation name (the prelude turned an SDK function into its key), a function
  of the program's own is refused; `turnSpan[]`: a list or tuple of dicts, each holding `from` and
  `to`, both whole numbers 0..4294967295;
- a keyword the function does not declare is refused, naming it and the declared parameters;
- a refused argument is `ApiError(<key>, invalid-argument)` raised in the program, before gg sees
  the call; so is every call past `maxHostCalls` (`limit-exceeded`), which never reaches gg and is
  counted;
- an `ApiError` is the engine's `OSError` with the text `<operation>: <code>: <message>`; each one
  raised is remembered, so an uncaught one is told from an `OSError` the program raised itself.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.sandbox.monty.worker.channel import Channel
from gg.sdk.shape_check import PLAIN_DEPTH

API_ERROR_CLASS = "OSError"
U32_MAX = 4_294_967_295
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 2
_SHOWN.maxstring = 40
_SHOWN.maxother = 40
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = 4


class Words:
    """The worker's sentences (rendered by gg), with `{hole}` markers filled per use."""

    def __init__(self, words: Mapping[str, str]) -> None:
        self._words = dict(words)

    def say(self, key: str, **values: str) -> str:
        text = self._words[key]
        for name, value in values.items():
            text = text.replace("{" + name + "}", value)
        return text


class Refusal(Exception):
    """An argument the call refuses: `exc_type` is what the program sees (`TypeError` or the
    ApiError's class), `text` its message."""

    def __init__(self, exc_type: str, text: str) -> None:
        super().__init__(text)
        self.exc_type = exc_type
        self.text = text


@dataclass(frozen=True)
class Param:
    name: str  # as the program spells it
    wire: str
    type: str  # a `ParamType` value
    required: bool
    checked_by_sdk: bool

    @classmethod
    def from_spec(cls, spec: list[Any]) -> Param:
        name, wire, kind, required, checked = spec
        return cls(str(name), str(wire), str(kind), bool(required), bool(checked))


@dataclass(frozen=True)
class HostOperation:
    key: str  # the SDK's name, `read_file`, which an ApiError names
    wire: str  # `files.read_file`
    params: tuple[Param, ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any]) -> HostOperation:
        params = tuple(Param.from_spec(p) for p in spec["params"])
        return cls(str(spec["key"]), str(spec["wire"]), params)


@dataclass
class HostCalls:
    """The SDK calls of one program: checks, the cap, the relay, and the ApiErrors raised."""

    channel: Channel
    run_id: int
    operations: Mapping[str, HostOperation]
    words: Words
    cap: int
    made: int = 0
    refused: int = 0
    raised: set[str] = field(default_factory=set[str])

    def serve(self, function: str, args: tuple[Any, ...]) -> dict[str, Any]:
        """The resume value (`return_value`, or an exception) for a call of the host function
        `function` (the prelude passes every argument in place)."""
        op = self.operations.get(function)
        if op is None:
            return {"exc_type": "NameError", "message": f"name '{function}' is not defined"}
        if self.made >= self.cap:
            self.refused += 1
            return self._api_error(op.key, "limit-exceeded", self.words.say("hostCallCap"))
        self.made += 1
        try:
            wire_args = self.arguments(op, args)
        except Refusal as refusal:
            if refusal.exc_type == API_ERROR_CLASS:
                return self._api_error(op.key, "invalid-argument", refusal.text)
            return {"exc_type": refusal.exc_type, "message": refusal.text}
        self.channel.send({"t": "call", "id": self.run_id, "op": op.wire, "args": wire_args})
        reply = self.channel.receive()
        if reply.get("ok"):
            return {"return_value": reply.get("value")}
        error = reply.get("error") or {}
        return self._api_error(str(error.get("operation")), str(error.get("code")), str(error.get("message")))

    def _api_error(self, operation: str, code: str, message: str) -> dict[str, Any]:
        text = f"{operation}: {code}: {message}"
        self.raised.add(text)
        return {"exc_type": API_ERROR_CLASS, "message": text}

    def arguments(self, op: HostOperation, args: tuple[Any, ...]) -> dict[str, Any]:
        """The call's wire arguments (camelCase), each checked. Raises `Refusal`."""
        self._refuse_unknown(op, args[len(op.params) :])
        given = dict(zip((p.name for p in op.params), args, strict=False))
        wire: dict[str, Any] = {}
        for param in op.params:
            value = given.get(param.name)
            if value is None and not param.required:
                continue
            wire[param.wire] = self._checked(op, param, value)
        return wire

    def _refuse_unknown(self, op: HostOperation, rest: tuple[Any, ...]) -> None:
        """The keywords the call gave that its function does not declare (the prelude's last
        argument) are refused, naming the first and the optional ones declared."""
        unknown = rest[0] if rest and isinstance(rest[0], dict) else {}
        if not unknown:
            return
        name = shown_name(str(next(iter(unknown))))  # pyright: ignore[reportUnknownArgumentType]
        known = ", ".join(f"`{p.name}`" for p in op.params if not p.required)
        word = "argUnknownOption" if known else "argNoOptions"
        raise Refusal(API_ERROR_CLASS, self.words.say(word, function=op.key, name=name, known=known))

    def _checked(self, op: HostOperation, param: Param, value: Any) -> Any:
        check = _CHECKS.get(param.type)
        if check is None:
            return value
        try:
            return check(value)
        except _Wrong as wrong:
            name = param.name if wrong.name is None else shown_name(f"{param.name}{wrong.name}")
            text = self.words.say(wrong.word, name=name, got=wrong.got, function=op.key)
            typed = param.type in ("string", "string?") and not param.checked_by_sdk
            raise Refusal("TypeError" if typed else API_ERROR_CLASS, text) from None


class _Wrong(Exception):
    def __init__(self, word: str, got: str, name: str | None = None) -> None:
        super().__init__(word)
        self.word = word
        self.got = got
        self.name = name  # the part of the argument at fault, when not the whole of it


def shown(value: Any) -> str:
    """A short rendering of a value for a message, however large or deep the value is."""
    return _SHOWN.repr(value)


def shown_name(name: str) -> str:
    return name if len(name) <= _SHOWN.maxstring else name[: _SHOWN.maxstring] + "…"


def type_name(value: Any) -> str:
    name = getattr(value, "name", None)
    if type(value).__name__.startswith("Monty") and isinstance(name, str):
        return name  # a sandbox object crossing as a proxy: its own class name
    return type(value).__name__


def _string(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise _Wrong("argString", type_name(value))


def _u32(value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= U32_MAX:
        return value
    raise _Wrong("argU32", shown(value))


def _count(value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= U32_MAX:
        return value
    raise _Wrong("argCount", shown(value))


def _positive(value: Any) -> float | int:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and math.isfinite(value) and value > 0:
        return value
    raise _Wrong("argPositive", shown(value))


def _string_list(value: Any) -> list[str]:
    if not isinstance(value, list | tuple):
        raise _Wrong("argStringList", shown(value))
    for item in value:  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(item, str):
            raise _Wrong("argListEntry", shown(item))
    return list(value)  # pyright: ignore[reportUnknownArgumentType]


def _spans(value: Any) -> list[dict[str, int]]:
    if not isinstance(value, list | tuple):
        raise _Wrong("argSpanList", type_name(value))
    spans: list[dict[str, int]] = []
    for span in value:  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(span, dict):
            raise _Wrong("argSpanEntry", type_name(span))  # pyright: ignore[reportUnknownArgumentType]
        if "from" not in span or "to" not in span:
            raise _Wrong("argSpanBounds", "")
        spans.append({bound: _bound(span[bound], bound) for bound in ("from", "to")})
    return spans


def _bound(value: Any, bound: str) -> int:
    try:
        return _u32(value)
    except _Wrong as wrong:
        raise _Wrong(wrong.word, wrong.got, f'[]["{bound}"]') from None


def _plain(value: Any) -> Any:
    fault = _not_plain(value, "", PLAIN_DEPTH)
    if fault is not None:
        where, got = fault
        raise _Wrong("argPlainData", got, where)
    return value


def _not_plain(value: Any, where: str, depth: int) -> tuple[str, str] | None:
    """Where in `value` (`[0]`, `["ids"]`, empty for the value itself) the first thing that is not
    plain data is, and what it is; None when it all is."""
    if value is None or isinstance(value, str | bool | int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (where, repr(value))
    if isinstance(value, list | tuple | dict) and depth <= 0:
        return where, f"{type_name(value)} nested deeper"
    if isinstance(value, list | tuple):
        items = enumerate(value)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        return _first_fault(_not_plain(item, f"{where}[{n}]", depth - 1) for n, item in items)
    if isinstance(value, dict):
        for key, item in value.items():  # pyright: ignore[reportUnknownVariableType]
            if not isinstance(key, str):
                return where, f"dict with the key {shown(key)}"
            fault = _not_plain(item, f"{where}[{json.dumps(key, ensure_ascii=False)}]", depth - 1)
            if fault is not None:
                return fault
        return None
    return where, type_name(value)


def _first_fault(faults: Iterator[tuple[str, str] | None]) -> tuple[str, str] | None:
    return next((fault for fault in faults if fault is not None), None)


def _doc_target(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "foreign" in value:
        raise _Wrong("argDocForeign", "")
    raise _Wrong("argDocTarget", type_name(value))


_CHECKS = {
    "string": _string,
    "string?": _string,
    "u32": _u32,
    "count": _count,
    "positiveNumber": _positive,
    "string[]": _string_list,
    "any": _plain,
    "docTarget": _doc_target,
    "turnSpan[]": _spans,
}
