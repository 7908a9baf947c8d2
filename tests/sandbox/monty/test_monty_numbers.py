"""Numbers: `float.is_integer` is missing from the engine and the prompt's statement of the subset
names it; infinities and NaN inside a program behave as in CPython."""

from __future__ import annotations

from montyworld import PYTHON, printed, raised, subset

from gg.sandbox.execution import Arm

pytestmark = PYTHON


def test_float_is_integer_is_missing_from_the_engine_and_the_subset_names_it(arm: Arm) -> None:
    assert raised(arm, "print(repr((2.0).is_integer()))") == (
        "AttributeError: 'float' object has no attribute 'is_integer'"  # CPython: True
    )
    assert "`float.is_integer`" in subset()


def test_a_whole_float_compares_equal_to_its_int_as_in_cpython(arm: Arm) -> None:
    assert printed(arm, "print(repr(2.0 == int(2.0)), repr(2.5 == int(2.5)))") == ["True False"]


def test_infinity_and_nan_inside_a_program_are_cpythons(arm: Arm) -> None:
    source = (
        'inf = float("inf")\nnan = float("nan")\n'
        "print(repr(inf), repr(-inf), repr(nan), repr(nan != nan), repr(inf > 10**300))\n"
        'import json\nprint(repr(json.dumps([inf, -inf])), repr(json.loads("[Infinity]")))\n'
    )
    assert printed(arm, source) == ["inf -inf nan True True", "'[Infinity, -Infinity]' [inf]"]
