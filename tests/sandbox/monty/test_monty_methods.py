"""A method taken as a value: the engine gives a method of a built-in type only to a call on the
spot, so the prompt's statement of the subset names it and offers a `lambda`; a method of the
program's own class is a value like in CPython."""

from __future__ import annotations

import pytest
from montyworld import PYTHON, printed, raised, subset

from gg.sandbox.execution import Arm

pytestmark = PYTHON

D = 'd = {"a": 3, "b": 7, "c": 5}\n'


@pytest.mark.parametrize(
    ("source", "engine_says", "subset_names"),
    [
        (
            D + "print(repr(max(d, key=d.get)))",
            "AttributeError: 'dict' object has no attribute 'get'",
            "`max(d, key=d.get)`",
        ),
        (
            'print(repr(list(filter(str.isdigit, "a1b22c3"))))',
            "AttributeError: type object 'str' has no attribute 'isdigit'",
            "`filter(str.isdigit, s)`",
        ),
        (
            'print(repr(list(map(str.upper, ["a", "b"]))))',
            "AttributeError: type object 'str' has no attribute 'upper'",
            "`map(str.upper, xs)`",
        ),
    ],
)
def test_a_built_in_types_method_is_no_value_in_the_engine_and_the_subset_names_it(
    arm: Arm, source: str, engine_says: str, subset_names: str
) -> None:
    assert raised(arm, source) == engine_says
    assert subset_names in subset() and "write a `lambda`" in subset()


def test_hasattr_does_not_see_a_built_in_types_method_and_the_subset_says_so(arm: Arm) -> None:
    source = D + 'print(repr(hasattr(d, "items")), repr(hasattr(d, "nope")))'
    assert printed(arm, source) == ["False False"]  # CPython: True False
    assert '`hasattr(d, "items")` is `False`' in subset()


def test_the_lambda_the_subset_offers_gives_cpythons_answer(arm: Arm) -> None:
    source = (
        D
        + "print(repr(max(d, key=lambda k: d[k])))\n"
        + 'print(repr(list(filter(lambda c: c.isdigit(), "a1b22c3"))))\n'
        + 'print(repr(list(map(lambda s: s.upper(), ["a", "b"]))))\n'
    )
    assert printed(arm, source) == ["'b'", "['1', '2', '2', '3']", "['A', 'B']"]


def test_a_method_of_the_programs_own_class_is_a_value_as_in_cpython(arm: Arm) -> None:
    source = (
        "class Counter:\n    def __init__(self):\n        self.n = 0\n\n"
        "    def bump(self, by):\n        self.n += by\n        return self.n\n\n\n"
        "c = Counter()\nbump = c.bump\nprint(repr(list(map(c.bump, [1, 2]))), repr(bump(10)))\n"
        'print(repr(hasattr(c, "bump")), repr(getattr(c, "bump")(1)))\n'
    )
    assert printed(arm, source) == ["[1, 3] 13", "True 14"]
