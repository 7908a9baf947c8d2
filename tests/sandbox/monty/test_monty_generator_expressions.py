"""Generator expressions: the engine builds one whole, as a list, so `next` over one fails and the
prompt's statement of the subset names it with the spelling that works; a generator expression
handed to a function that takes any iterable gives CPython's answer."""

from __future__ import annotations

from montyworld import PYTHON, printed, raised, subset

from gg.sandbox.execution import Arm

pytestmark = PYTHON


def test_next_over_a_generator_expression_fails_in_the_engine_and_the_subset_names_it(arm: Arm) -> None:
    assert raised(arm, "print(repr(next(x for x in [5, 6, 7] if x > 5)))") == (
        "TypeError: 'list' object is not an iterator"  # CPython: 6
    )
    assert printed(arm, "print(type(x for x in [1]).__name__)") == ["list"]  # CPython: generator
    assert "so `next(x for x in xs)` fails" in subset()


def test_the_spelling_the_subset_offers_gives_cpythons_answer(arm: Arm) -> None:
    source = (
        "xs = [5, 6, 7]\n"
        "print(repr(next(iter([x for x in xs if x > 5]), None)))\n"
        "print(repr(next(iter([x for x in xs if x > 9]), None)))\n"
    )
    assert "`next(iter([x for x in xs]), None)`" in subset()
    assert printed(arm, source) == ["6", "None"]


def test_a_generator_expression_given_to_a_function_of_an_iterable_gives_cpythons_answer(arm: Arm) -> None:
    source = (
        "xs = [3, 1, 2]\n"
        "print(repr(sum(x * x for x in xs)), repr(max(x for x in xs)), repr(any(x > 2 for x in xs)))\n"
        'print(repr(",".join(str(x) for x in xs)), repr(sorted(x for x in xs)))\n'
        "print(repr(dict((x, -x) for x in xs)))\n"
    )
    assert printed(arm, source) == ["14 3 True", "'3,1,2' [1, 2, 3]", "{3: -3, 1: -1, 2: -2}"]
