"""Value rules: whole numbers, numbers, choices, flags, text."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic_core import PydanticCustomError

from gg.config.catalogue import Language
from gg.config.values import Choice, Flag, Number, Text, Whole

ID_LENGTH = Whole(2, 32)
BYTES = Whole(1, what="a whole number of bytes")
SECONDS = Number(above=0, what="a number of seconds")


def refused(check: Any, value: object) -> str:
    with pytest.raises(PydanticCustomError) as caught:
        check(value)
    return caught.value.message()


def test_a_whole_number_may_be_written_as_a_float_with_an_integral_value() -> None:
    assert BYTES.check(5e8) == 500_000_000
    assert isinstance(BYTES.check(5e8), int)
    assert ID_LENGTH.check(4.0) == 4


def test_a_whole_number_with_a_fraction_is_refused() -> None:
    assert refused(BYTES.check, 500000000.5) == "must be a whole number of bytes, 1 or more"


@pytest.mark.parametrize("value", [True, False])
def test_booleans_are_never_numbers(value: bool) -> None:
    refused(BYTES.check, value)
    refused(SECONDS.check, value)


@pytest.mark.parametrize("value", ["5", "many", None, [4], {"n": 4}])
def test_anything_but_a_number_is_refused(value: object) -> None:
    refused(ID_LENGTH.check, value)
    refused(SECONDS.check, value)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_non_finite_numbers_are_refused(value: float) -> None:
    refused(BYTES.check, value)
    refused(SECONDS.check, value)


def test_a_whole_number_is_bounded_by_the_stores_64_bit_integer_never_clamped() -> None:
    assert BYTES.check(9223372036854775807) == 9223372036854775807
    for value in (9223372036854775808, 10**30, 1e300):
        assert refused(BYTES.check, value) == (
            "must be a whole number of bytes from 1 to 9223372036854775807, the most a store holds"
        )
    assert BYTES.schema()["maximum"] == 9223372036854775807 and ID_LENGTH.schema()["maximum"] == 32


def test_a_number_too_large_for_a_float_is_refused_rather_than_overflowing() -> None:
    refused(SECONDS.check, 10**400)


def test_a_number_honours_fractions() -> None:
    assert SECONDS.check(0.25) == 0.25


@pytest.mark.parametrize(("value", "accepted"), [(1, False), (2, True), (32, True), (33, False)])
def test_whole_number_bounds_are_inclusive(value: int, accepted: bool) -> None:
    if accepted:
        assert ID_LENGTH.check(value) == value
    else:
        assert refused(ID_LENGTH.check, value) == "must be a whole number from 2 to 32"


def test_an_exclusive_lower_bound_refuses_the_bound_itself() -> None:
    assert refused(SECONDS.check, 0) == "must be a number of seconds above 0"
    assert SECONDS.check(1e-9) == 1e-9


def test_a_fraction_ceiling_states_both_bounds() -> None:
    rate = Number(above=0, most=1, what="a fraction")
    assert rate.check(1) == 1.0
    assert refused(rate.check, 1.5) == "must be a fraction above 0 and at most 1"


def test_a_note_explains_what_a_value_means() -> None:
    keep = Whole(0, note="0 keeps every program")
    assert refused(keep.check, -1) == "must be a whole number, 0 or more (0 keeps every program)"


def test_a_choice_returns_the_enum_member_and_refuses_other_spellings() -> None:
    language = Choice(Language)
    assert language.check("python") is Language.PYTHON
    assert (
        refused(language.check, "JavaScript") == "must be one of javascript, typescript, python, python-typed"
    )
    refused(language.check, 1)


@pytest.mark.parametrize("value", [1, 0, "yes", "true", None])
def test_a_flag_accepts_only_true_and_false(value: object) -> None:
    assert refused(Flag().check, value) == "must be true or false"


def test_text_refuses_blank_long_and_mismatched_strings() -> None:
    slug = Text(r"[a-z0-9-]+", "lowercase letters, digits and hyphens", max_chars=8)
    assert slug.check("a-1") == "a-1"
    for value in ["", "  ", "Root", "a_b", "x" * 9, 7]:
        refused(slug.check, value)


def test_a_refusal_keeps_braces_in_its_wording_verbatim() -> None:
    with_braces = Text(r"\{x\}", "{braces}")
    assert "{braces}" in refused(with_braces.check, "y")
