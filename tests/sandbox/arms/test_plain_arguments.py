"""What a program hands a host function crosses as plain JSON data or not at all: a Set, a Map,
NaN, a BigInt, undefined in an array, a Date, a function or a class instance (a set, nan, bytes
or a non-string key in Python) is refused in the guest, `invalid-argument` naming the parameter,
where in it the value sits and what it is, and the host function is never called; plain data
crosses unchanged."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from typing import Any

import pytest

import gg
from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry
from gg.sdk.host.operations import host_entries
from gg.sdk.registry import Registry
from support.guest_world import CEILINGS

ledger = gg.family("ledger", doc="the shop's counts.")


@ledger.operation
def tally(counts: dict[str, Any]) -> dict[str, Any]:
    """The counts, as received."""
    return counts


def registry() -> Registry:
    entries = host_entries([(ledger.declaration, lambda declaration: lambda scope, args: None)])
    return default_registry(entries.operations, entries.types, dict(entries.briefs))


pytestmark = pytest.mark.arms("javascript", "python", registry=registry)

JS_KINDS = "null, booleans, finite numbers, strings, and arrays and plain objects of them"
PY_KINDS = "None, bools, finite numbers, strings, and lists and dicts of them with string keys"
JS = """import { ledger } from "gg";
const out = [];
const attempt = (f) => {
  try { out.push(JSON.stringify(f())); } catch (e) { out.push(`${e.code} ${e.operation}: ${e.message}`); }
};
attempt(() => ledger.tally({ ids: new Set([1, 2]), m: new Map(), n: NaN }));
attempt(() => ledger.tally({ m: new Map() }));
attempt(() => ledger.tally({ n: NaN }));
attempt(() => ledger.tally({ big: 10n }));
attempt(() => ledger.tally(10n));
attempt(() => ledger.tally({ list: [1, undefined] }));
attempt(() => ledger.tally({ when: new Date(0) }));
attempt(() => ledger.tally({ f() {} }));
attempt(() => ledger.tally({ p: new (class Point {})() }));
attempt(() => ledger.tally({ "a b": [[{ x: -Infinity }]] }));
attempt(() => ledger.tally({ fine: [1, "two", null, true, { x: -0.5 }], gone: undefined }));
console.log(JSON.stringify(out));
"""
PY = """import gg
from gg import ledger
out = []
def attempt(f):
    try:
        out.append(json.dumps(f()))
    except gg.ApiError as e:
        d = gg.core.details(e)
        out.append(d.code + " " + d.operation + ": " + d.message)
import json
attempt(lambda: ledger.tally({"ids": {1, 2}, "n": float("nan")}))
attempt(lambda: ledger.tally({"n": float("inf")}))
attempt(lambda: ledger.tally({"k": {1: 2}}))
attempt(lambda: ledger.tally({"b": [b"x"]}))
attempt(lambda: ledger.tally({"fine": [1, "two", None, True, {"x": -0.5}], "t": (1, 2)}))
print(out)
"""


class Host:
    """Answers `ledger.tally` with the counts it received, and keeps them."""

    def __init__(self) -> None:
        self.received: list[Any] = []

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any:
        self.received.append(args["counts"])
        return args["counts"]


def _said(arm: Arm) -> tuple[list[str], list[Any]]:
    host = Host()
    javascript = arm.language == "javascript"
    execution = arm.run(JS if javascript else PY, host, CEILINGS)
    assert execution.ok, execution.failure
    line = execution.logs[-1]
    return (json.loads(line) if javascript else ast.literal_eval(line)), host.received


def _where_and_what(refusal: str) -> str:
    """ "`counts.m` Map" for "`counts.m` must be plain JSON data (...), got Map"."""
    return refusal.split(" must ")[0] + refusal.rsplit(", got", 1)[1]


@pytest.mark.arms("javascript", registry=registry)
def test_javascript_refuses_what_is_not_plain_data_naming_parameter_path_and_type(arm: Arm) -> None:
    said, received = _said(arm)
    refused = "invalid-argument tally: "
    kinds = f"({JS_KINDS}, nested at most 64 deep)"
    assert said[0] == f"{refused}`counts.ids` must be plain JSON data {kinds}, got Set"
    assert [_where_and_what(line.removeprefix(refused)) for line in said[1:-1]] == [
        "`counts.m` Map",
        "`counts.n` NaN",
        "`counts.big` BigInt",
        "`counts` BigInt",
        "`counts.list[1]` undefined",
        "`counts.when` Date",
        "`counts.f` function",
        "`counts.p` Point",
        '`counts["a b"][0][0].x` -Infinity',
    ]
    assert json.loads(said[-1]) == {"fine": [1, "two", None, True, {"x": -0.5}]}
    assert received == [{"fine": [1, "two", None, True, {"x": -0.5}]}]


@pytest.mark.arms("python", registry=registry)
def test_python_refuses_what_is_not_plain_data_naming_parameter_path_and_type(arm: Arm) -> None:
    said, received = _said(arm)
    refused = "invalid-argument tally: "
    kinds = f"({PY_KINDS}, nested at most 64 deep)"
    assert said[0] == f'{refused}`counts["ids"]` must be plain JSON data {kinds}, got set'
    assert [_where_and_what(line.removeprefix(refused)) for line in said[1:-1]] == [
        '`counts["n"]` inf',
        '`counts["k"]` dict with the key 1',
        '`counts["b"][0]` bytes',
    ]
    assert json.loads(said[-1]) == {"fine": [1, "two", None, True, {"x": -0.5}], "t": [1, 2]}
    assert received == [{"fine": [1, "two", None, True, {"x": -0.5}], "t": [1, 2]}]
