"""A host function is declared from the function itself: its annotations, defaults and docstring;
every mistake is refused where the function is decorated, naming the function."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pytest
from typing_extensions import TypedDict

import gg
from gg.errors import ErrorCode
from gg.sdk.host.declaration import family_from_json, family_to_json
from gg.sdk.shapes import ListOf, Literals, MapOf, OneOf, RecordShape, Scalar, ScalarKind, py, ts

STRING, INTEGER, NULL = Scalar(ScalarKind.STRING), Scalar(ScalarKind.INTEGER), Scalar(ScalarKind.NULL)


class Pair(TypedDict):
    """Two names."""

    left: str
    right: Annotated[str | None, "the other one"]


@dataclass
class Node:
    name: str
    children: list[Node]


@dataclass
class Spot:
    name: str


OtherSpot = dataclass(type("Spot", (), {"__annotations__": {"x": int}}))


def test_a_function_is_declared_from_its_annotations_defaults_and_docstring() -> None:
    family = gg.family("stock", doc="  the   stock. ")

    @family.operation(errors={"not-found": "no item has this SKU"})
    def count_items(
        sku: Annotated[str, "the item's SKU"],
        limit: int = 10,
        *,
        mode: Literal["all", "some"] | None = None,
        pairs: dict[str, list[Pair]] | None = None,
    ) -> list[int]:
        """How many there are.

        Everything after the first paragraph is for people."""
        return []

    (function,) = family.functions
    declared = function.declaration
    assert (family.doc, declared.name, declared.summary) == (
        "the stock.",
        "count_items",
        "How many there are.",
    )
    assert [(p.name, p.required, p.keyword, p.doc) for p in declared.params] == [
        ("sku", True, False, "the item's SKU"),
        ("limit", False, False, "defaults to 10"),
        ("mode", False, True, ""),
        ("pairs", False, True, ""),
    ]
    pair = RecordShape("Pair", (), "Two names.")
    assert declared.params[2].shape == OneOf((Literals(("all", "some")), NULL))
    shape = declared.params[3].shape
    assert isinstance(shape, OneOf) and isinstance(shape.options[0], MapOf)
    assert ts(shape) == "Record<string, Pair[]> | null" and py(shape) == "dict[str, list[Pair]] | None"
    assert declared.result == ListOf(INTEGER)
    assert declared.errors == ((ErrorCode.NOT_FOUND, "no item has this SKU"),)
    record = family.declaration.records()[0]
    assert (record.name, record.doc) == (pair.name, pair.doc)
    assert [(f.name, f.required, f.doc) for f in record.fields] == [
        ("left", True, ""),
        ("right", True, "the other one"),
    ]
    assert count_items("x") == []  # the decorator hands the function back


def test_a_declaration_crosses_a_recording_as_json_and_comes_back_the_same() -> None:
    family = gg.family("pairs", doc="pairs.")

    @family.operation
    def pair_up(pair: Pair, *, spots: list[Spot] | None = None) -> dict[str, Any]:
        """Match a pair."""
        return {}

    text = json.dumps(family_to_json(family.declaration))
    assert family_from_json(json.loads(text)) == family.declaration


@pytest.mark.parametrize(
    ("source", "refusal"),
    [
        ("def f(*items: int) -> int:\n    'd'", "`*items` cannot be declared; name every parameter"),
        ("def f(**items: int) -> int:\n    'd'", "`*items` cannot be declared; name every parameter"),
        ("def f(a) -> int:\n    'd'", "the parameter `a` needs a type annotation"),
        (
            "def f(a: set[int]) -> int:\n    'd'",
            "`set[int]`: it is not a type a host function can take (str, int",
        ),
        ("def f(a: dict[int, str]) -> int:\n    'd'", "a dict's keys must be `str`"),
        ("def f(a: Literal[1.5]) -> int:\n    'd'", "a Literal may hold strings, whole numbers and booleans"),
        ("def f(*, a: int) -> int:\n    'd'", "the keyword-only parameter `a` needs a default"),
        ("def f(a: int):\n    'd'", "must annotate what it returns (`-> None` when it returns nothing)"),
        (
            "def f(a: int) -> int:\n    pass",
            "needs a docstring: its first paragraph is the summary the model reads",
        ),
        ("def Count(a: int) -> int:\n    'd'", "a name must be snake_case"),
        ("def f(node: Node) -> int:\n    'd'", "`Node` contains itself, which a record may not"),
        ("def f(a_b: int, aB: int) -> int:\n    'd'", "two parameters are both spelled `aB` in JavaScript"),
    ],
)
def test_a_function_that_cannot_be_declared_is_refused_where_it_is_decorated(
    source: str, refusal: str
) -> None:
    namespace: dict[str, Any] = {"Literal": Literal, "Node": Node}
    exec(source, namespace)
    function = next(v for k, v in namespace.items() if callable(v) and k not in ("Literal", "Node"))
    with pytest.raises((TypeError, ValueError)) as refused:
        gg.family("checks", doc="checks.").operation(function)
    assert refusal in str(refused.value)
    assert str(refused.value).startswith("host function `checks.")


def test_names_errors_and_families_that_cannot_be_spelled_everywhere_are_refused() -> None:
    family = gg.family("names", doc="names.")

    def f() -> None:
        """Nothing."""

    with pytest.raises(ValueError, match="`delete` is a reserved word in Python or JavaScript"):
        family.operation(name="delete")(f)
    with pytest.raises(ValueError, match="`match` is a reserved word in Python or JavaScript"):
        family.operation(name="match")(f)
    with pytest.raises(ValueError, match="`lost` is not an error code"):
        family.operation(errors={"lost": "never"})(f)
    family.operation(f)
    with pytest.raises(ValueError, match="already declares `f`"):
        family.operation(f)
    with pytest.raises(ValueError, match="`files` is one of gg's own modules"):
        gg.family("files", doc="mine.")
    with pytest.raises(ValueError, match="needs a `doc`"):
        gg.family("mine", doc=" ")
    with pytest.raises(ValueError, match="a name must be snake_case"):
        gg.family("My-Tools", doc="tools.")


def test_two_records_of_one_name_must_be_one_class() -> None:
    family = gg.family("spots", doc="spots.")

    def both(a: Spot, b: OtherSpot) -> None:
        """Both."""

    with pytest.raises(TypeError, match="two different records are both named `Spot`"):
        family.operation(both)


def test_a_returned_none_is_declared_void_and_an_any_takes_plain_data() -> None:
    family = gg.family("keeping", doc="keeping.")

    @family.operation
    def keep(value: Any, other: object = None) -> None:
        """Keep it."""

    declared = family.declaration.functions[0]
    assert declared.returns_nothing and [p.shape for p in declared.params] == [Scalar(ScalarKind.ANY)] * 2
    assert STRING != INTEGER


def test_every_module_of_gg_s_own_sdk_is_a_name_no_host_family_takes() -> None:
    from gg.sdk.catalogue import FAMILY_BRIEFS, default_registry
    from gg.sdk.host.family import RESERVED_FAMILIES

    assert set(FAMILY_BRIEFS) | set(default_registry().families()) | {"core", "lib"} <= RESERVED_FAMILIES
