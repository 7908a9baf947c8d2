"""Shapes: each spelled for TypeScript, for Python and in words, and the host's judge of a JSON
value against one (`gg.sdk.shape_check`); recordings carry them as JSON (`gg.sdk.shape_json`)."""

from __future__ import annotations

import pytest

from gg.sdk.shape_check import Violation, shown, violation
from gg.sdk.shape_json import from_json, record_from_json, record_to_json, to_json
from gg.sdk.shapes import (
    ListOf,
    Literals,
    MapOf,
    OneOf,
    RecordField,
    RecordShape,
    Scalar,
    ScalarKind,
    accepts_null,
    py,
    records_in,
    ts,
    words,
)

STR, INT, NUM = Scalar(ScalarKind.STRING), Scalar(ScalarKind.INTEGER), Scalar(ScalarKind.NUMBER)
BOOL, NULL, ANY = Scalar(ScalarKind.BOOLEAN), Scalar(ScalarKind.NULL), Scalar(ScalarKind.ANY)
POINT = RecordShape(
    "Point", (RecordField("x", NUM), RecordField("label", OneOf((STR, NULL)), required=False))
)
PATH = RecordShape("Path", (RecordField("points", ListOf(POINT)),))


@pytest.mark.parametrize(
    ("shape", "typescript", "python", "said"),
    [
        (INT, "number", "int", "a whole number"),
        (NUM, "number", "float", "a number"),
        (ANY, "unknown", "Any", "plain data"),
        (Literals(("a", 1, True)), '"a" | 1 | true', "Literal['a', 1, True]", 'one of "a", 1, true'),
        (ListOf(OneOf((STR, NULL))), "(string | null)[]", "list[str | None]", "a list"),
        (MapOf(ListOf(BOOL)), "Record<string, boolean[]>", "dict[str, list[bool]]", "an object"),
        (OneOf((POINT, NULL)), "Point | null", "Point | None", "an object (`Point`) or null"),
        (OneOf((INT, NUM)), "number", "int | float", "a whole number or a number"),
    ],
)
def test_a_shape_is_spelled_for_each_arm_and_in_words(
    shape: object, typescript: str, python: str, said: str
) -> None:
    assert (ts(shape), py(shape), words(shape)) == (typescript, python, said)  # type: ignore[arg-type]


def test_a_whole_number_is_a_number_a_whole_float_a_whole_number_and_a_boolean_neither() -> None:
    assert violation(NUM, 2) is None and violation(INT, 3.0) is None
    assert violation(INT, 2.5) == Violation("", "must be a whole number, got 2.5")
    assert violation(NUM, True) == Violation("", "must be a number, got true")
    assert violation(NUM, float("nan")) == Violation("", "must be a number, got nan")
    assert violation(ANY, {"a": [1, None, {"b": float("inf")}]}) is not None
    assert violation(ANY, {"a": [1, None, {"b": "c"}]}) is None


def test_the_first_mismatch_is_named_where_it_is() -> None:
    assert violation(PATH, {"points": [{"x": 1}, {"x": "far"}]}) == Violation(
        ".points[1].x", 'must be a number, got "far"'
    )
    assert violation(MapOf(INT), {"north": 1, "south": "two"}) == Violation(
        '["south"]', 'must be a whole number, got "two"'
    )
    assert violation(POINT, {"x": 1, "y": 2}) == Violation("", "has no field `y` (`Point` has `x`, `label`)")
    assert violation(POINT, {"label": "a"}) == Violation("", "lacks the field `x` (`Point` requires it)")
    assert violation(POINT, {"x": 1}) is None  # `label` is not required


def test_a_union_reports_the_one_option_of_the_values_kind_or_else_itself() -> None:
    nullable = OneOf((POINT, NULL))
    assert violation(nullable, None) is None
    assert violation(nullable, {"x": "a"}) == Violation(".x", 'must be a number, got "a"')
    assert violation(OneOf((STR, INT)), [1]) == Violation("", "must be a string or a whole number, got [1]")
    assert accepts_null(nullable) and not accepts_null(POINT) and accepts_null(ANY)


def test_records_come_after_the_records_their_fields_name_and_cross_as_json() -> None:
    assert [r.name for r in records_in(OneOf((PATH, POINT)))] == ["Point", "Path"]
    known: dict[str, RecordShape] = {}
    for record in records_in(PATH):
        known[record.name] = record_from_json(record_to_json(record), known)
    assert known["Path"] == PATH
    assert from_json(to_json(MapOf(OneOf((Literals(("a",)), PATH)))), known) == MapOf(
        OneOf((Literals(("a",)), PATH))
    )
    with pytest.raises(ValueError, match="is not a shape"):
        from_json({"record": "Nowhere"}, known)
    with pytest.raises(ValueError, match="is not a scalar shape"):
        from_json("decimal", known)


def test_a_value_is_shown_short_and_as_json() -> None:
    assert shown("x" * 50) == '"' + "x" * 39 + "…"
    assert shown({1, 2}) == "{1, 2}"  # not JSON: its repr
