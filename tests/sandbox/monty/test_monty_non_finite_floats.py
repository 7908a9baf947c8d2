"""A non-finite float at the host-function membrane: JSON has no `inf` or `nan`, so the Python arm
refuses one with `invalid-argument` naming the parameter, where in it the number is and the number
itself, before the call reaches the host; any other part of an argument that is not plain data is
named with where it is too. End to end through `gg.run`, against the `warehouse` family."""

from __future__ import annotations

import ast
from pathlib import Path

import gg
import warehouse as shop
from support import scripted_host
from support.scripted_host import Scripted
from warehouse import warehouse

PROGRAM = """import gg
w = gg.warehouse
failures = {}


def attempt(name, call):
    try:
        failures[name] = repr(call())
    except gg.ApiError as error:
        failures[name] = str(error)


attempt("field", lambda: w.weigh({"label": "a", "weight": float("inf"), "tags": []}))
attempt("option", lambda: w.weigh({"label": "a", "weight": 1.0, "tags": []}, extra=float("-inf")))
attempt("deep", lambda: w.anything({"deep": [1, {"x": float("nan")}]}))
attempt("whole", lambda: w.anything(float("nan")))
attempt("set", lambda: w.anything({"tags": [1, {2, 3}]}))
attempt("finite", lambda: w.anything({"x": [1.5, -2.0e300]}))
gg.session.finish(repr(failures))
"""


def test_a_non_finite_float_is_refused_naming_the_parameter_the_path_and_the_value(tmp_path: Path) -> None:
    shop.CALLS.clear()
    config = scripted_host.config(tmp_path, "python", ["warehouse"])
    result = gg.run(config, model=Scripted(PROGRAM), families=[warehouse], store=tmp_path)
    assert result.status == "completed", result.message
    assert result.final_text is not None
    plain = (
        "must be plain JSON data (None, bools, finite numbers, strings, and lists and dicts of them"
        " with string keys, nested at most 64 deep), got"
    )
    assert ast.literal_eval(result.final_text) == {
        "field": f'weigh: invalid-argument: `box["weight"]` {plain} inf',
        "option": f"weigh: invalid-argument: `extra` {plain} -inf",
        "deep": f'anything: invalid-argument: `value["deep"][1]["x"]` {plain} nan',
        "whole": f"anything: invalid-argument: `value` {plain} nan",
        "set": f'anything: invalid-argument: `value["tags"][1]` {plain} set',
        "finite": "{'x': [1.5, -2e+300]}",
    }
    assert shop.CALLS == []  # neither refused `weigh` reached the family
